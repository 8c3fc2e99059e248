package dev.tala.cli.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Written then parsed gives back the same intent, bit for bit: Intent.equals compares floats by
 * their bits, so -0.0 vs 0.0 or a subnormal rounded away would fail.
 */
class IntentLineRoundTripTest {
    private static final int DIMENSION = 16;
    private final IntentLineParser parser = new IntentLineParser(DIMENSION);

    /** Asserts the round trip through both parse paths, and that the line is one line. */
    private void assertRoundTrip(Intent intent) {
        String line = JsonLinesWriter.toLine(intent);
        assertFalse(line.contains("\n") || line.contains("\r"), "a JSON line must not contain a line break");
        assertEquals(new IntentLine.Put(intent), parser.parse(line), line);
        // The UTF-8 stream writer must produce the same text, and the byte parser read it back.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLinesWriter writer = new JsonLinesWriter(out)) {
            writer.writeIntent(intent);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] bytes = out.toByteArray();
        assertEquals(line + "\n", new String(bytes, StandardCharsets.UTF_8));
        assertEquals(new IntentLine.Put(intent), parser.parse(bytes, 0, bytes.length - 1), line);
    }

    @Property(tries = 300)
    void randomIntentsRoundTrip(@ForAll long seed) {
        RandomIntents random = new RandomIntents(seed, DIMENSION);
        for (int i = 0; i < 5; i++) {
            assertRoundTrip(random.next());
        }
    }

    @Property(tries = 500)
    void everyFieldRoundTrips(@ForAll("commands") String command,
                              @ForAll @Size(DIMENSION) List<@From("finiteFloats") Float> embedding,
                              @ForAll("unitFloats") float confidence,
                              @ForAll("finiteFloats") float weight,
                              @ForAll long contextHash,
                              @ForAll @LongRange(min = 0, max = IntentLimits.MAX_TIMESTAMP_NS) long timestamp,
                              @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long latency,
                              @ForAll int exitCode,
                              @ForAll Status status,
                              @ForAll Relation relation,
                              @ForAll long idHigh, @ForAll long idLow) {
        float[] vector = new float[DIMENSION];
        for (int i = 0; i < DIMENSION; i++) {
            vector[i] = embedding.get(i);
        }
        Intent intent = Intent.builder()
                .id(IntentId.of(idHigh, idLow))
                .timestampNs(timestamp)
                .command(command)
                .contextHash(contextHash)
                .confidence(confidence)
                .status(status)
                .embedding(vector)
                .addEdge(IntentId.of(idLow, idHigh), relation, weight)
                .outcome(new Outcome(latency, exitCode))
                .build();
        assertRoundTrip(intent);
        assertFalse(JsonLinesWriter.toLine(intent).contains("\"context_hash\":-"), "context_hash is written unsigned");
    }

    @Example
    void formatEdgeCases() {
        float[] vector = new float[DIMENSION];
        float[] specials = {-0.0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Math.nextDown(Float.MIN_NORMAL),
            Float.MAX_VALUE, -Float.MAX_VALUE, 1.0E-5f, 0.1f, 1f / 3, 16777217f, 1.0E10f, 9.999999E-39f, 3.4028233E38f,
            Math.nextUp(1f), 0f};
        System.arraycopy(specials, 0, vector, 0, DIMENSION);
        assertRoundTrip(Intent.builder()
                .id(IntentId.of(-1L, -1L))
                .timestampNs(IntentLimits.MAX_TIMESTAMP_NS)
                .contextHash(Long.MIN_VALUE)
                .confidence(-0.0f)
                .command("\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028\u2029\uFEFF😀👩‍💻𝄞 中文 עברית")
                .embedding(vector)
                .addEdge(IntentId.of(0, 0), Relation.BRANCH, -0.0f)
                .outcome(new Outcome(0, Integer.MIN_VALUE))
                .build());
    }

    @Provide
    Arbitrary<String> commands() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.strings().ascii().ofMaxLength(12),
                Arbitraries.strings().withCharRange('\u0000', '\u001f').ofMaxLength(3),
                Arbitraries.of("\"", "\\", "\\\"", "\\u0000", "/", "\u007f", "\u2028", "\u2029", "\uFEFF", "é", "€"),
                Arbitraries.of("🚀", "👩‍💻", "😀", "𝄞", "中文", "עברית", "🇫🇷"),
                Arbitraries.strings().withCharRange('\u0080', '\ud7ff').ofMaxLength(6));
        return piece.list().ofMaxSize(16).map(parts -> String.join("", parts));
    }

    /** Every finite float is equally likely by bit pattern, so subnormals and -0.0 appear often. */
    @Provide
    Arbitrary<Float> finiteFloats() {
        return Arbitraries.oneOf(
                Arbitraries.integers().map(Float::intBitsToFloat).filter(Float::isFinite),
                Arbitraries.of(-0.0f, 0.0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, Float.MIN_NORMAL),
                Arbitraries.floats());
    }

    @Provide
    Arbitrary<Float> unitFloats() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(0, Float.floatToIntBits(1.0f)).map(Float::intBitsToFloat),
                Arbitraries.of(-0.0f, 0.0f, 1.0f, Float.MIN_VALUE));
    }
}
