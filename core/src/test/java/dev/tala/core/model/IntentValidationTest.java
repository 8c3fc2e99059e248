package dev.tala.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.InvalidIntentException;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.FloatRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class IntentValidationTest {
    private static Intent.Builder valid() {
        return Intent.builder()
                .id(IntentId.newV7())
                .timestampNs(1_700_000_000_000_000_000L)
                .contextHash(-1L)
                .confidence(0.5f)
                .status(Status.SUCCESS)
                .command("kubectl rollout restart deploy/api")
                .embedding(new float[] {0.1f, -0.2f, 0.3f});
    }

    private static void rejects(String field, String messagePart, Consumer<Intent.Builder> change) {
        Intent.Builder b = valid();
        change.accept(b);
        InvalidIntentException e = assertThrows(InvalidIntentException.class, b::build);
        assertEquals(field, e.field(), e.getMessage());
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    @Test
    void aValidIntentBuildsAndKeepsItsFields() {
        Intent i = valid().outcome(new Outcome(1234, -1)).addEdge(IntentId.newV7(), Relation.RETRY, 0.25f).build();
        assertEquals(Status.SUCCESS, i.status());
        assertEquals(3, i.dimension());
        assertEquals(-0.2f, i.embedding(1));
        assertEquals(new Outcome(1234, -1), i.outcome());
        assertEquals(1, i.edges().size());
        assertEquals(i, i.toBuilder().build());
    }

    @Test
    void missingFieldsAreNamed() {
        rejects("id", "missing", b -> b.id(null));
        rejects("status", "missing", b -> b.status(null));
        rejects("command", "missing", b -> b.command(null));
        rejects("embedding", "missing", b -> b.embedding(null));
    }

    @Test
    void confidenceOutsideUnitIntervalOrNanIsRejected() {
        rejects("confidence", "[0, 1]", b -> b.confidence(1.0001f));
        rejects("confidence", "[0, 1]", b -> b.confidence(-0.01f));
        rejects("confidence", "[0, 1]", b -> b.confidence(Float.NaN));
        rejects("confidence", "[0, 1]", b -> b.confidence(Float.POSITIVE_INFINITY));
    }

    @Property
    void everyConfidenceInsideTheIntervalIsAccepted(@ForAll @FloatRange(min = 0, max = 1) float c) {
        assertEquals(c, valid().confidence(c).build().confidence());
    }

    @Property
    void everyConfidenceOutsideTheIntervalIsRejected(@ForAll float c) {
        Assume.that(!(c >= 0f && c <= 1f));
        rejects("confidence", "[0, 1]", b -> b.confidence(c));
    }

    @Property
    void aNonFiniteValueAnywhereInTheEmbeddingIsRejectedWithItsIndex(
            @ForAll @IntRange(min = 1, max = 512) int dimension, @ForAll Random random,
            @ForAll("nonFinite") float bad) {
        float[] values = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            values[i] = random.nextFloat() * 2 - 1;
        }
        int at = random.nextInt(dimension);
        values[at] = bad;
        rejects("embedding", "value " + at + " is ", b -> b.embedding(values));
    }

    @Provide
    Arbitrary<Float> nonFinite() {
        return Arbitraries.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY);
    }

    @Property
    void onlyTheDatabasesDimensionIsAccepted(@ForAll @IntRange(min = 1, max = 2048) int dimension,
                                             @ForAll @IntRange(min = 1, max = 2048) int database) {
        Intent i = valid().embedding(new float[dimension]).build();
        if (dimension == database) {
            i.requireWritable(database);
        } else {
            InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> i.requireWritable(database));
            assertEquals("embedding", e.field());
        }
    }

    @Property
    void commandsAreMeasuredInUtf8Bytes(@ForAll @IntRange(min = 0, max = 30_000) int repeat,
                                        @ForAll("oneCodePoint") String unit) {
        String command = unit.repeat(repeat);
        int bytes = command.getBytes(StandardCharsets.UTF_8).length;
        if (bytes <= IntentLimits.MAX_COMMAND_BYTES) {
            Intent built = valid().command(command).build();
            assertEquals(command, built.command());
            assertEquals(bytes, built.commandBytes());
        } else {
            rejects("command", bytes + " bytes", b -> b.command(command));
        }
    }

    @Provide
    Arbitrary<String> oneCodePoint() {
        // 1, 2, 3 and 4 bytes of UTF-8.
        return Arbitraries.of("a", "\u00e9", "\u20ac", "\ud83d\ude80");
    }

    /**
     * Any string, lone surrogates included: padded to exactly the limit it is accepted and one
     * byte over it is rejected, or it is rejected as invalid Unicode, as the JDK's strict
     * UTF-8 encoder (the oracle) says.
     */
    @Property
    void theUtf8LengthOfAnyStringIsCountedExactly(@ForAll("anyChars") String text) {
        int bytes;
        try {
            bytes = StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(text)).remaining();
        } catch (CharacterCodingException e) {
            rejects("command", "unpaired surrogate", b -> b.command(text));
            return;
        }
        String atLimit = text + "a".repeat(IntentLimits.MAX_COMMAND_BYTES - bytes);
        assertEquals(atLimit, valid().command(atLimit).build().command());
        rejects("command", (IntentLimits.MAX_COMMAND_BYTES + 1) + " bytes", b -> b.command(atLimit + "a"));
    }

    @Test
    void commandBytesCountsEachEncodingLength() {
        for (String s : List.of("", "ls", "d\u00e9ployer l'application \u2713", "echo \ud83d\ude80", "\u07ff\u0800\uffff")) {
            assertEquals(s.getBytes(StandardCharsets.UTF_8).length, IntentLimits.commandBytes(s), s);
        }
        assertThrows(InvalidIntentException.class, () -> IntentLimits.commandBytes("\udc00 low first"));
        assertThrows(InvalidIntentException.class, () -> IntentLimits.commandBytes("high last \ud800"));
    }

    @Provide
    Arbitrary<String> anyChars() {
        Arbitrary<String> pairs = Arbitraries.of("\ud83d\ude80", "\udbff\udfff", "\ud800\udc00");
        Arbitrary<String> single = Arbitraries.chars().map(String::valueOf);
        return Arbitraries.oneOf(single, single, pairs).list().ofMaxSize(40).map(parts -> String.join("", parts));
    }

    @Test
    void anAdoptedEmbeddingIsKeptWithoutACopyAndStillValidated() {
        float[] values = {0.5f, -0.25f, 1f};
        Intent adopted = valid().adoptEmbedding(values).build();
        assertEquals(3, adopted.dimension());
        assertEquals(-0.25f, adopted.embedding(1));
        values[1] = 9f; // what a caller must never do; here it shows the intent holds the array itself
        assertEquals(9f, adopted.embedding(1));
        float[] copied = {0.5f, -0.25f, 1f};
        Intent built = valid().embedding(copied).build();
        copied[1] = 9f;
        assertEquals(-0.25f, built.embedding(1));
        rejects("embedding", "value 0 is NaN", b -> b.adoptEmbedding(new float[] {Float.NaN}));

        // Adoption is remembered through modified copies, and withOwnEmbedding ends it.
        assertTrue(adopted.hasAdoptedEmbedding() && adopted.withOutcome(Status.SUCCESS, null).hasAdoptedEmbedding());
        assertFalse(built.hasAdoptedEmbedding());
        assertSame(built, built.withOwnEmbedding());
        Intent owned = adopted.withOwnEmbedding();
        assertFalse(owned.hasAdoptedEmbedding());
        assertEquals(adopted, owned);
        values[1] = 7f;
        assertEquals(9f, owned.embedding(1), "the copy no longer follows the caller's array");
        assertFalse(adopted.toBuilder().embedding(new float[] {1, 2, 3}).build().hasAdoptedEmbedding());
    }

    @Property(tries = 50)
    void atMost1024EdgesAreAccepted(@ForAll @IntRange(min = 0, max = 1100) int count) {
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            edges.add(new Edge(IntentId.of(0, i), Relation.DEPENDENCY, 0.5f));
        }
        if (count <= IntentLimits.MAX_EDGES) {
            assertEquals(count, valid().edges(edges).build().edges().size());
        } else {
            rejects("edges", count + " edges", b -> b.edges(edges));
        }
    }

    @Test
    void nonFiniteEmbeddingValuesAreRejectedWithTheirIndex() {
        rejects("embedding", "value 1 is NaN", b -> b.embedding(new float[] {0, Float.NaN, 0}));
        rejects("embedding", "value 2 is Infinity", b -> b.embedding(new float[] {0, 0, Float.POSITIVE_INFINITY}));
        rejects("embedding", "1 to", b -> b.embedding(new float[0]));
    }

    @Test
    void wrongDimensionIsRejectedAgainstTheDatabase() {
        Intent i = valid().build();
        InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> i.requireWritable(384));
        assertEquals("embedding", e.field());
        assertTrue(e.getMessage().contains("has 3 values but the database's dimension is 384"), e.getMessage());
        i.requireWritable(3);
    }

    /** Time ranges end before Long.MAX_VALUE, so a write stamped with it could never be scanned. */
    @Test
    void aTimestampOfLongMaxValueIsNotWritable() {
        Intent last = valid().timestampNs(IntentLimits.MAX_TIMESTAMP_NS).build();
        last.requireWritable(3);
        Intent beyond = valid().timestampNs(Long.MAX_VALUE).build();
        InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> beyond.requireWritable(3));
        assertEquals("timestamp", e.field());
        assertTrue(e.getMessage().contains("must be at most 9223372036854775806"), e.getMessage());
    }

    @Test
    void commandOver64KibOfUtf8IsRejected() {
        String atLimit = "a".repeat(IntentLimits.MAX_COMMAND_BYTES);
        assertEquals(atLimit, valid().command(atLimit).build().command());
        rejects("command", "65537 bytes", b -> b.command(atLimit + "b"));
        // 3 bytes per character in UTF-8: 21846 * 3 > 65536 although the string is short.
        rejects("command", "bytes of UTF-8", b -> b.command("\u20ac".repeat(21_846)));
        rejects("command", "unpaired surrogate", b -> b.command("bad \ud800 text"));
    }

    @Test
    void tooManyEdgesOrBadEdgesAreRejected() {
        List<Edge> edges = new ArrayList<>();
        for (int i = 0; i <= IntentLimits.MAX_EDGES; i++) {
            edges.add(new Edge(IntentId.of(0, i), Relation.CAUSAL, 1f));
        }
        rejects("edges", "1025 edges", b -> b.edges(edges));
        assertEquals(1024, valid().edges(edges.subList(0, 1024)).build().edges().size());
        InvalidIntentException e = assertThrows(InvalidIntentException.class,
                () -> new Edge(IntentId.of(0, 1), Relation.CAUSAL, Float.NaN));
        assertEquals("edges.weight", e.field());
    }

    @Test
    void negativeTimestampsAndLatenciesAreRejected() {
        rejects("timestamp", ">= 0", b -> b.timestampNs(-1));
        InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> new Outcome(-5, 0));
        assertEquals("outcome.latency_ns", e.field());
    }

    @Test
    void enumLabelsParseAndUnknownOnesAreNamed() {
        assertEquals(Status.PARTIAL, Status.parse("partial"));
        assertEquals(Relation.DEPENDENCY, Relation.parse("dependency"));
        InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> Status.parse("done"));
        assertEquals("status", e.field());
        assertTrue(e.getMessage().contains("\"done\""));
        assertThrows(InvalidIntentException.class, () -> Relation.parse("sibling"));
        for (Status s : Status.values()) {
            assertEquals(s, Status.ofCode(s.code()));
        }
        for (Relation r : Relation.values()) {
            assertEquals(r, Relation.ofCode(r.code()));
        }
    }

    @Test
    void theEmbeddingCannotBeChangedFromOutside() {
        float[] values = {1, 2, 3};
        Intent i = valid().embedding(values).build();
        values[0] = 99;
        assertEquals(1f, i.embedding(0));
        i.embedding()[1] = 99;
        assertEquals(2f, i.embedding(1));
    }
}
