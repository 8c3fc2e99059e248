package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flipped bit in any region is never served: every accessor of a damaged segment either returns
 * exactly what the undamaged segment returns or throws CorruptionException, and the accessors that
 * read the damaged region always throw, naming its offset, on every call. With
 * {@link SegmentOpenOption#VERIFY_ALL} the damage is refused at open.
 */
class RegionChecksumTest {
    /** Regions whose checksum open() checks in any case: point lookups depend on them. */
    private static final Set<RegionKind> CHECKED_AT_OPEN = EnumSet.of(RegionKind.BLOOM, RegionKind.INDEX,
            RegionKind.FOREIGN_IDS);
    private static final int DIM = 8;
    private static final int THREADS = 8;

    @TempDir
    Path dir;
    private Path pristine;
    private byte[] original;
    private List<IntentVersion> versions;

    /**
     * Five rows, so that every region is non-empty: outcomes, a tombstone (which is also an edge
     * target), local and foreign edges, reverse edges.
     */
    private static List<IntentVersion> fixture() {
        IntentId[] ids = new IntentId[5];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = IntentId.of(0x1000 + i, 42 + i);
        }
        IntentId foreign = IntentId.of(0x7fff, 1);
        List<IntentVersion> out = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            if (i == 2) {
                out.add(IntentVersion.tombstone(ids[i], 100 + i));
                continue;
            }
            float[] embedding = new float[DIM];
            for (int d = 0; d < DIM; d++) {
                embedding[d] = (i + 1) * 0.25f - d * 0.125f;
            }
            Intent.Builder b = Intent.builder()
                    .id(ids[i])
                    .timestampNs(1_700_000_000_000_000_000L + i)
                    .contextHash(0xC0FFEEL * (i + 1))
                    .confidence(0.2f * i)
                    .status(Status.values()[i % Status.values().length])
                    .command("command " + (i % 3))
                    .embedding(embedding)
                    .edges(List.of(new Edge(ids[(i + 1) % ids.length], Relation.CAUSAL, 0.5f),
                            new Edge(ids[2], Relation.RETRY, 1f),
                            new Edge(foreign, Relation.DEPENDENCY, 0.25f)));
            if (i % 2 == 0) {
                b.outcome(new Outcome(1000L * (i + 1), i - 1));
            }
            out.add(IntentVersion.put(100 + i, b.build()));
        }
        return out;
    }

    @BeforeEach
    void write() throws IOException {
        versions = fixture();
        pristine = dir.resolve("pristine.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE)
                .write(pristine, SegmentWriteOptions.of(9, 1, DIM, EmbeddingType.F32).withSync(false), versions);
        original = Files.readAllBytes(pristine);
        try (SegmentReader reader = open(pristine)) {
            reader.verify();
            for (RegionKind kind : RegionKind.values()) {
                RegionEntry entry = reader.directory().entry(kind);
                assertNotNull(entry, kind.label());
                assertTrue(entry.storedLength() > 0, kind.label() + " must be non-empty for this test");
            }
        }
    }

    private static SegmentReader open(Path file, SegmentOpenOption... options) throws IOException {
        return SegmentReader.open(LocalFileLayer.INSTANCE, file, options);
    }

    private static Object bytes(MemorySegment s) {
        return s == null ? null : Arrays.toString(s.toArray(ValueLayout.JAVA_BYTE));
    }

    /** Every public way to read a value, by name, and the regions each name's reads depend on. */
    private Map<String, Function<SegmentReader, Object>> probes() {
        Map<String, Function<SegmentReader, Object>> p = new LinkedHashMap<>();
        p.put("idsColumn", r -> bytes(r.idsColumn()));
        p.put("timestampColumn", r -> bytes(r.timestampColumn()));
        p.put("contextHashColumn", r -> bytes(r.contextHashColumn()));
        p.put("confidenceColumn", r -> bytes(r.confidenceColumn()));
        p.put("statusColumn", r -> bytes(r.statusColumn()));
        p.put("sequenceColumn", r -> bytes(r.sequenceColumn()));
        p.put("embeddingRegion", r -> bytes(r.embeddingRegion()));
        p.put("strings", r -> {
            StringTable t = r.strings();
            List<String> all = new ArrayList<>();
            for (int i = 0; i < t.count(); i++) {
                all.add(t.get(i));
            }
            return all;
        });
        p.put("idIndex.find", r -> r.idIndex().find(versions.get(3).id()));
        for (int row = 0; row < versions.size(); row++) {
            int i = row;
            IntentId id = versions.get(row).id();
            p.put("id(" + i + ")", r -> r.id(i));
            p.put("timestamp(" + i + ")", r -> r.timestamp(i));
            p.put("contextHash(" + i + ")", r -> r.contextHash(i));
            p.put("confidence(" + i + ")", r -> r.confidence(i));
            p.put("status(" + i + ")", r -> r.status(i));
            p.put("sequence(" + i + ")", r -> r.sequence(i));
            p.put("isTombstone(" + i + ")", r -> r.isTombstone(i));
            p.put("outcome(" + i + ")", r -> r.outcome(i));
            p.put("command(" + i + ")", r -> r.command(i));
            p.put("embeddingSlot(" + i + ")", r -> r.embeddingSlot(i));
            p.put("embedding(" + i + ")", r -> bytes(r.embedding(i)));
            p.put("embeddingAsFloats(" + i + ")", r -> Arrays.toString(r.embeddingAsFloats(i)));
            p.put("version(" + i + ")", r -> r.version(i));
            p.put("outDegree(" + i + ")", r -> r.outDegree(i));
            p.put("edgesFrom(" + i + ")", r -> r.edgesFrom(i));
            p.put("edgesTo(" + i + ")", r -> r.edgesTo(id));
            p.put("find(" + i + ")", r -> r.find(id));
            p.put("mightContain(" + i + ")", r -> r.mightContain(id));
        }
        for (int slot = 0; slot < versions.size() - 1; slot++) {
            int s = slot;
            p.put("embeddingAtSlot(" + s + ")", r -> bytes(r.embeddingAtSlot(s)));
        }
        p.put("foreignId(0)", r -> r.foreignId(0));
        p.put("foreignIndex", r -> r.foreignIndex(IntentId.of(0x7fff, 1)));
        return p;
    }

    /** The probes that read {@code kind}'s bytes (beyond those of regions checked at open). */
    private Set<String> readersOf(RegionKind kind, Set<String> all) {
        Set<String> out = new java.util.TreeSet<>();
        List<Integer> puts = new ArrayList<>();
        List<Integer> withOutcome = new ArrayList<>();
        for (int row = 0; row < versions.size(); row++) {
            if (!versions.get(row).isTombstone()) {
                puts.add(row);
                if (versions.get(row).intent().outcome() != null) {
                    withOutcome.add(row);
                }
            }
        }
        switch (kind) {
            case IDS -> addMatching(out, all, "idsColumn", "idIndex.find", "id(", "find(", "version(");
            case TIMESTAMPS -> addMatching(out, all, "timestampColumn", "timestamp(");
            case CONTEXT_HASHES -> addMatching(out, all, "contextHashColumn", "contextHash(");
            case CONFIDENCES -> addMatching(out, all, "confidenceColumn", "confidence(");
            case STATUSES -> addMatching(out, all, "statusColumn", "status(");
            case SEQUENCE -> addMatching(out, all, "sequenceColumn", "sequence(", "version(");
            case ROW_FLAGS -> addMatching(out, all, "isTombstone(", "outcome(", "command(", "embeddingSlot(", "embedding(");
            case EMBED_SLOT -> addMatching(out, all, "embeddingSlot(", "embedding(", "embeddingAsFloats(");
            case COMMAND_REF -> puts.forEach(row -> out.add("command(" + row + ")"));
            case OUTCOME_LATENCY, OUTCOME_EXIT_CODE -> withOutcome.forEach(row -> out.add("outcome(" + row + ")"));
            case EMBEDDINGS -> {
                addMatching(out, all, "embeddingRegion", "embeddingAtSlot(");
                puts.forEach(row -> out.add("embedding(" + row + ")"));
            }
            case CSR -> addMatching(out, all, "outDegree(", "edgesFrom(");
            case CSC -> addMatching(out, all, "edgesTo(");
            case STRING_TABLE -> {
                out.add("strings");
                puts.forEach(row -> out.add("command(" + row + ")"));
            }
            default -> fail("no accessor reads " + kind + " after open");
        }
        return out;
    }

    private static void addMatching(Set<String> out, Set<String> all, String... prefixes) {
        for (String name : all) {
            for (String prefix : prefixes) {
                if (name.startsWith(prefix)) {
                    out.add(name);
                }
            }
        }
    }

    /** What each probe returns on the undamaged file. */
    private Map<String, Object> expectations(Map<String, Function<SegmentReader, Object>> probes) throws IOException {
        Map<String, Object> expected = new LinkedHashMap<>();
        try (SegmentReader reader = open(pristine)) {
            probes.forEach((name, probe) -> expected.put(name, probe.apply(reader)));
        }
        return expected;
    }

    /** Where {@code kind}'s bytes start in the pristine file. */
    private long regionOffset(RegionKind kind) throws IOException {
        try (SegmentReader reader = open(pristine)) {
            return reader.directory().entry(kind).offset();
        }
    }

    /** A copy of the pristine file named {@code name} with {@code bit} flipped. */
    private Path damagedCopy(String name, long bit) throws IOException {
        Path damaged = dir.resolve(name);
        Files.write(damaged, flipped(bit));
        return damaged;
    }

    private byte[] flipped(long bit) {
        byte[] copy = original.clone();
        copy[(int) (bit / 8)] ^= (byte) (1 << (bit % 8));
        return copy;
    }

    /** The first, a middle and the last bit of the region. */
    private static long[] bitsIn(RegionEntry entry) {
        long first = entry.offset() * 8;
        long last = entry.end() * 8 - 1;
        return new long[] {first, (first + last) / 2, last};
    }

    @Test
    void aFlippedBitInAnyRegionIsNeverServed() throws IOException {
        Map<String, Function<SegmentReader, Object>> probes = probes();
        Map<String, Object> expected = expectations(probes);
        Map<RegionKind, RegionEntry> entries = new EnumMap<>(RegionKind.class);
        try (SegmentReader reader = open(pristine)) {
            for (RegionKind kind : RegionKind.values()) {
                entries.put(kind, reader.directory().entry(kind));
            }
        }
        Path damaged = dir.resolve("damaged.tbf");
        for (RegionKind kind : RegionKind.values()) {
            RegionEntry entry = entries.get(kind);
            for (long bit : bitsIn(entry)) {
                String where = kind.label() + " bit " + bit;
                Files.write(damaged, flipped(bit));
                if (CHECKED_AT_OPEN.contains(kind)) {
                    assertRefusedAtOpen(damaged, entry, kind, where);
                    continue;
                }
                Set<String> mustThrow = readersOf(kind, probes.keySet());
                assertFalse(mustThrow.isEmpty(), where);
                try (SegmentReader reader = open(damaged)) {
                    for (Map.Entry<String, Function<SegmentReader, Object>> probe : probes.entrySet()) {
                        String name = probe.getKey();
                        // Twice: a damaged region stays refused, it is not served once the first check has thrown.
                        for (int attempt = 0; attempt < 2; attempt++) {
                            Object value;
                            try {
                                value = probe.getValue().apply(reader);
                            } catch (CorruptionException e) {
                                if (mustThrow.contains(name)) {
                                    assertEquals(entry.offset(), e.offset(), where + ": " + name + " " + e.getMessage());
                                    assertTrue(e.getMessage().contains(kind.label() + " region checksum mismatch"),
                                            where + ": " + e.getMessage());
                                    assertTrue(e.getMessage().startsWith(damaged + " at offset "), e.getMessage());
                                }
                                continue;
                            } catch (RuntimeException e) {
                                throw new AssertionError(where + ": " + name + " threw " + e, e);
                            }
                            if (mustThrow.contains(name)) {
                                fail(where + ": " + name + " returned " + value + " from a damaged region");
                            }
                            assertEquals(expected.get(name), value, where + ": " + name + " returned another value");
                        }
                    }
                }
                assertRefusedAtOpen(damaged, entry, kind, where + " with VERIFY_ALL");
            }
        }
    }

    private static void assertRefusedAtOpen(Path damaged, RegionEntry entry, RegionKind kind, String where) {
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> open(damaged, SegmentOpenOption.VERIFY_ALL).close(), where);
        assertEquals(entry.offset(), e.offset(), where + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(kind.label() + " region checksum mismatch"), where + ": " + e.getMessage());
        if (CHECKED_AT_OPEN.contains(kind)) {
            assertThrows(CorruptionException.class, () -> open(damaged).close(), where + " without VERIFY_ALL");
        }
    }

    /** A damaged string table is one problem, not also a second report of its checksum by the decoder. */
    @Test
    void aDamagedStringTableIsReportedOnce() throws IOException {
        RegionEntry entry;
        try (SegmentReader reader = open(pristine)) {
            entry = reader.directory().entry(RegionKind.STRING_TABLE);
        }
        Path damaged = dir.resolve("damaged-strings.tbf");
        Files.write(damaged, flipped(bitsIn(entry)[1]));
        try (SegmentReader reader = open(damaged)) {
            List<CorruptionException> problems = reader.verifyAll();
            assertEquals(1, problems.size(), problems.toString());
            assertEquals(entry.offset(), problems.getFirst().offset());
        }
    }

    @Test
    void verifyAllAcceptsAnIntactSegmentAndServesIt() throws IOException {
        Map<String, Function<SegmentReader, Object>> probes = probes();
        Map<String, Object> expected = expectations(probes);
        try (SegmentReader reader = open(pristine, SegmentOpenOption.VERIFY_ALL)) {
            for (Map.Entry<String, Function<SegmentReader, Object>> probe : probes.entrySet()) {
                assertEquals(expected.get(probe.getKey()), probe.getValue().apply(reader), probe.getKey());
            }
            for (int row = 0; row < versions.size(); row++) {
                assertEquals(versions.get(row), reader.version(row));
            }
        }
    }

    @Test
    void aDamagedUnknownRegionIsRefusedOnlyByVerifyAll() throws IOException {
        byte[] content = "a region of a newer minor version".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] newer = Crafting.withUnknownRegion(original, 99, content);
        long at = MemorySegment.ofArray(original).get(dev.tala.segment.format.TbfFormat.U64,
                dev.tala.segment.format.TbfFormat.H_FOOTER_OFFSET);
        newer[(int) at] ^= 1;
        Path file = dir.resolve("newer.tbf");
        Files.write(file, newer);
        try (SegmentReader reader = open(file)) {
            assertEquals(versions.get(0), reader.version(0), "an unknown region is never read");
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(file, SegmentOpenOption.VERIFY_ALL));
        assertEquals(at, e.offset());
        assertTrue(e.getMessage().contains("99 (unknown)"), e.getMessage());
    }

    /**
     * mightContain reads the segment's first and last id to rule out ids outside its range; with
     * the ids column damaged it falls back to the bloom filter alone, so lookups of ids the
     * segment cannot hold do not fail, while find, which needs the column, still reports it.
     */
    @Test
    void aDamagedIdsColumnLeavesMightContainToTheBloomFilter() throws Exception {
        long idsAt = regionOffset(RegionKind.IDS);
        Path damaged = damagedCopy("damaged-ids.tbf", idsAt * 8 + 5);
        IntentId present = versions.get(0).id();
        try (SegmentReader good = open(pristine); SegmentReader bad = open(damaged)) {
            for (int i = 0; i < 2_000; i++) {
                IntentId probe = i == 0 ? present : IntentId.of(i * 0x9E3779B97F4A7C15L, i);
                assertEquals(good.bloomFilter().mightContain(probe), bad.mightContain(probe), "probe " + probe);
            }
            CorruptionException e = assertThrows(CorruptionException.class, () -> bad.find(present));
            assertEquals(idsAt, e.offset());
        }
    }

    @Test
    void concurrentFirstAccessesAllGetTheCheckedBytesOrAllFail() throws Exception {
        long timestampsAt = regionOffset(RegionKind.TIMESTAMPS);
        Path damaged = damagedCopy("damaged-timestamps.tbf", timestampsAt * 8 + 3);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (SegmentReader good = open(pristine); SegmentReader bad = open(damaged)) {
            List<Object> fromGood = raceFirstAccess(pool, () -> bytes(good.timestampColumn()));
            for (Object o : fromGood) {
                assertEquals(fromGood.get(0), o);
            }
            List<Object> fromBad = raceFirstAccess(pool, () -> bytes(bad.timestampColumn()));
            for (Object o : fromBad) {
                assertTrue(o instanceof CorruptionException c && c.offset() == timestampsAt, Objects.toString(o));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs {@code access} on every thread at once; returns each thread's result or CorruptionException. */
    private static List<Object> raceFirstAccess(ExecutorService pool, Callable<Object> access)
            throws InterruptedException, ExecutionException {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<Object>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            futures.add(pool.submit(() -> {
                start.await();
                try {
                    return access.call();
                } catch (CorruptionException e) {
                    return e;
                }
            }));
        }
        List<Object> out = new ArrayList<>();
        for (Future<Object> f : futures) {
            out.add(f.get());
        }
        return out;
    }
}
