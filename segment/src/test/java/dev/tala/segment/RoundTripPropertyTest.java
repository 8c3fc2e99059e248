package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.SegmentFixtures.Shape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/** Random segments written and read back: values, lookups, edges in both directions. */
class RoundTripPropertyTest {
    private static Path dir;

    @BeforeContainer
    static void createDirectory() {
        dir = TempFiles.newDirectory("tbf-roundtrip");
    }

    @AfterContainer
    static void deleteDirectory() {
        TempFiles.deleteRecursively(dir);
    }

    @Provide
    Arbitrary<Shape> shapes() {
        Arbitrary<Integer> rows = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(2, Arbitraries.just(0)),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(1)),
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(2, 300)));
        Arbitrary<Integer> dims = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.integers().between(1, 40)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(64, 100, 384)));
        return Combinators.combine(rows, dims, Arbitraries.of(EmbeddingType.class), Arbitraries.of(true, false),
                Arbitraries.of(0.0, 0.1, 0.5, 1.0), Arbitraries.of(0, 3, 12), Arbitraries.of(true, false),
                Arbitraries.longs()).as(Shape::new);
    }

    @Property(tries = 120)
    void segmentsReadBackWhatWasWritten(@ForAll("shapes") Shape shape) throws Exception {
        List<IntentVersion> versions = SegmentFixtures.randomVersions(shape);
        Path file = dir.resolve("roundtrip.tbf");
        SegmentSummary summary = SegmentFixtures.write(file, SegmentFixtures.options(shape), versions);
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            reader.verify();
            assertTrue(reader.verifyAll().isEmpty());
            assertEquals(versions.size(), reader.rowCount());
            assertEquals(summary.fileSize(), reader.fileSize());
            assertEquals(shape.reverse(), reader.hasReverseEdges());
            assertFalse(reader.header().isPartial());
            for (int row = 0; row < versions.size(); row++) {
                assertVersion(shape.type(), versions.get(row), reader.version(row));
                assertEquals(row, reader.find(versions.get(row).id()));
                assertTrue(reader.mightContain(versions.get(row).id()));
            }
            checkSummary(versions, summary, reader);
            Statistics.label("string table").collect(reader.header().compression() == 2 ? "zstd" : "raw");
            Statistics.label("foreign targets").collect(reader.foreignIdCount() > 0);
            Statistics.label("dtype").collect(shape.type());
            checkFindAgainstLinearScan(reader, new Random(shape.seed()));
            checkEdgesToAgainstInversion(versions, reader, new Random(shape.seed() + 1));
        }
    }

    private static void assertFalse(boolean b) {
        assertTrue(!b);
    }

    static void assertVersion(EmbeddingType type, IntentVersion expected, IntentVersion actual) {
        if (type == EmbeddingType.F32) {
            assertEquals(expected, actual);
            return;
        }
        assertEquals(expected.id(), actual.id());
        assertEquals(expected.sequence(), actual.sequence());
        assertEquals(expected.isTombstone(), actual.isTombstone());
        if (expected.isTombstone()) {
            assertNull(actual.intent());
            return;
        }
        Intent e = expected.intent();
        Intent a = actual.intent();
        assertEquals(e.timestampNs(), a.timestampNs());
        assertEquals(e.contextHash(), a.contextHash());
        assertEquals(Float.floatToIntBits(e.confidence()), Float.floatToIntBits(a.confidence()));
        assertEquals(e.status(), a.status());
        assertEquals(e.outcome(), a.outcome());
        assertEquals(e.command(), a.command());
        assertEquals(e.edges(), a.edges());
        assertWithinBound(type, e.embedding(), a.embedding());
        // Everything except the embedding is exact: rebuilding with the decoded vector gives equality.
        assertEquals(e.toBuilder().embedding(a.embedding()).build(), a);
    }

    /** The documented worst-case error of each lossy encoding. */
    static void assertWithinBound(EmbeddingType type, float[] expected, float[] actual) {
        assertEquals(expected.length, actual.length);
        float maxAbs = 0;
        for (float v : expected) {
            maxAbs = Math.max(maxAbs, Math.abs(v));
        }
        for (int i = 0; i < expected.length; i++) {
            double x = expected[i];
            double err = Math.abs(x - actual[i]);
            double bound = switch (type) {
                case F32 -> 0;
                case F16 -> Math.max(Math.abs(x) * 0x1p-11, 0x1p-25);
                case BF16 -> Math.max(Math.abs(x) * 0x1p-8, 0x1p-133);
                case INT8 -> maxAbs / 127.0 * 0.5001 + maxAbs * 1e-6;
            };
            assertTrue(err <= bound, type + " component " + i + ": " + x + " decoded as " + actual[i]
                    + ", error " + err + " > bound " + bound);
        }
    }

    private static void checkSummary(List<IntentVersion> versions, SegmentSummary summary, SegmentReader reader) {
        long puts = versions.stream().filter(v -> !v.isTombstone()).count();
        long edges = versions.stream().filter(v -> !v.isTombstone()).mapToLong(v -> v.intent().edges().size()).sum();
        assertEquals(puts, summary.putCount());
        assertEquals(versions.size() - puts, summary.tombstoneCount());
        assertEquals(edges, summary.edgeCount());
        assertEquals(edges, reader.edgeCount());
        long minTs = versions.stream().filter(v -> !v.isTombstone()).mapToLong(v -> v.intent().timestampNs()).min().orElse(0);
        long maxTs = versions.stream().filter(v -> !v.isTombstone()).mapToLong(v -> v.intent().timestampNs()).max().orElse(0);
        long minSeq = versions.stream().mapToLong(IntentVersion::sequence).min().orElse(0);
        long maxSeq = versions.stream().mapToLong(IntentVersion::sequence).max().orElse(0);
        assertArrayEquals(new long[] {minTs, maxTs, minSeq, maxSeq}, new long[] {summary.minTimestamp(),
            summary.maxTimestamp(), summary.minSequence(), summary.maxSequence()});
        Footer f = reader.footer();
        assertArrayEquals(new long[] {minTs, maxTs, minSeq, maxSeq, puts}, new long[] {f.minTimestamp(),
            f.maxTimestamp(), f.minSequence(), f.maxSequence(), f.putCount()});
        boolean outcomes = versions.stream().anyMatch(v -> !v.isTombstone() && v.intent().outcome() != null);
        assertEquals(outcomes, reader.header().hasOutcomes());
        assertEquals(puts > 0, reader.header().hasEmbeddings());
    }

    private static void checkFindAgainstLinearScan(SegmentReader reader, Random r) {
        List<IntentId> probes = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            probes.add(SegmentFixtures.randomId(r));
        }
        if (reader.rowCount() > 0) {
            IntentId first = reader.id(0);
            IntentId last = reader.id(reader.rowCount() - 1);
            probes.add(IntentId.of(first.mostSignificantBits(), first.leastSignificantBits() - 1));
            probes.add(IntentId.of(last.mostSignificantBits(), last.leastSignificantBits() + 1));
            probes.add(IntentId.of(0, 0));
            probes.add(IntentId.of(-1, -1));
        }
        for (IntentId probe : probes) {
            int expected = -1;
            for (int row = 0; row < reader.rowCount(); row++) {
                if (reader.id(row).equals(probe)) {
                    expected = row;
                }
            }
            assertEquals(expected, reader.find(probe), "find(" + probe + ")");
        }
    }

    private static void checkEdgesToAgainstInversion(List<IntentVersion> versions, SegmentReader reader, Random r) {
        Set<IntentId> targets = new LinkedHashSet<>();
        for (IntentVersion v : versions) {
            targets.add(v.id());
            if (!v.isTombstone()) {
                v.intent().edges().forEach(e -> targets.add(e.target()));
            }
        }
        targets.add(SegmentFixtures.randomId(r));
        List<IntentId> foreign = new ArrayList<>();
        for (int i = 0; i < reader.foreignIdCount(); i++) {
            foreign.add(reader.foreignId(i));
        }
        for (IntentId target : targets) {
            List<IncomingEdge> expected = new ArrayList<>();
            for (int row = 0; row < versions.size(); row++) {
                IntentVersion v = versions.get(row);
                if (v.isTombstone()) {
                    continue;
                }
                for (Edge e : v.intent().edges()) {
                    if (e.target().equals(target)) {
                        expected.add(new IncomingEdge(row, e.relation(), e.weight()));
                    }
                }
            }
            if (!reader.hasReverseEdges()) {
                expected.clear();
            }
            assertEquals(expected, reader.edgesTo(target), "edgesTo(" + target + ")");
            boolean isForeign = reader.find(target) < 0 && !expected.isEmpty();
            if (isForeign) {
                assertTrue(foreign.contains(target));
            }
        }
        for (int i = 1; i < foreign.size(); i++) {
            assertTrue(foreign.get(i - 1).compareTo(foreign.get(i)) < 0, "foreign ids ascending");
        }
    }
}
