package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bloom filter matches the reference formulas bit for bit, and its false-positive rate is about 1%. */
class BloomFilterTest {
    @TempDir
    Path dir;

    /** FNV-1a-64, written out here so the test does not trust the production hash. */
    private static long fnv1a(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte b : bytes) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static byte[] littleEndian(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    @Test
    void fnvMatchesPublishedVectors() {
        assertEquals(0xcbf29ce484222325L, fnv1a(new byte[0]));
        assertEquals(0xaf63dc4c8601ec8cL, fnv1a(new byte[] {'a'}));
        assertEquals(0x85944171f73967e8L, fnv1a("foobar".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    @Test
    void sizingFollowsTheReferenceFormulas() {
        assertEquals(64, BloomFilter.numBitsFor(0));
        assertEquals(1, BloomFilter.numHashesFor(0, 64));
        assertEquals(64, BloomFilter.numBitsFor(1));
        assertEquals(45, BloomFilter.numHashesFor(1, 64));
        assertEquals(959, BloomFilter.numBitsFor(100));
        assertEquals(7, BloomFilter.numHashesFor(100, 959));
        assertEquals(958_506, BloomFilter.numBitsFor(100_000));
        assertEquals(7, BloomFilter.numHashesFor(100_000, 958_506));
    }

    @Test
    void writtenWordsAreExactlyTheReferenceBits() throws IOException {
        List<IntentId> ids = List.of(
                IntentId.parse("00000000-0000-0000-0000-000000000001"),
                IntentId.parse("0190a6f2-7c1e-7a3b-9f00-0123456789ab"),
                IntentId.parse("7fffffff-ffff-ffff-8000-000000000000"),
                IntentId.parse("ffffffff-ffff-ffff-ffff-fffffffffffe"));
        List<IntentVersion> versions = new ArrayList<>();
        for (IntentId id : ids) {
            versions.add(IntentVersion.put(1, Intent.builder().id(id).embedding(new float[] {1f}).build()));
        }
        Path file = dir.resolve("bloom.tbf");
        SegmentFixtures.write(file, SegmentWriteOptions.of(1, 0, 1, EmbeddingType.F32), versions);

        int n = ids.size();
        long numBits = (long) Math.max(64, Math.ceil(-n * Math.log(0.01) / (Math.log(2) * Math.log(2))));
        int numHashes = (int) Math.max(1, Math.ceil((double) numBits / n * Math.log(2)));
        long[] expected = new long[(int) ((numBits + 63) / 64)];
        for (IntentId id : ids) {
            long h1 = fnv1a(id.toBytes());
            long h2 = fnv1a(littleEndian(h1)) + 1;
            for (int i = 0; i < numHashes; i++) {
                long bit = Long.remainderUnsigned(h1 + i * h2, numBits);
                expected[(int) (bit / 64)] |= 1L << (bit % 64);
            }
        }

        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int bloomAt = (int) bytes.getLong(80);
        assertEquals(numHashes, bytes.getInt(bloomAt));
        assertEquals(numBits, bytes.getLong(bloomAt + 4));
        long[] words = new long[expected.length];
        for (int w = 0; w < words.length; w++) {
            words[w] = bytes.getLong(bloomAt + 12 + 8 * w);
        }
        assertArrayEquals(expected, words);
        assertTrue(java.util.Arrays.stream(words).anyMatch(w -> w != 0));
    }

    /** Expected words by the plain formula: one 64-bit remainder per bit. */
    private static long[] referenceWords(IntentId[] ids) {
        int n = ids.length;
        long numBits = (long) Math.max(64, Math.ceil(-n * Math.log(0.01) / (Math.log(2) * Math.log(2))));
        int numHashes = n == 0 ? 1 : (int) Math.max(1, Math.ceil((double) numBits / n * Math.log(2)));
        long[] words = new long[(int) ((numBits + 63) / 64)];
        for (IntentId id : ids) {
            long h1 = fnv1a(id.toBytes());
            long h2 = fnv1a(littleEndian(h1)) + 1;
            for (int i = 0; i < numHashes; i++) {
                long bit = Long.remainderUnsigned(h1 + i * h2, numBits);
                words[(int) (bit / 64)] |= 1L << (bit % 64);
            }
        }
        return words;
    }

    @Test
    void incrementalResiduesGiveTheReferenceBitsForManySizes() {
        Random r = new Random(12);
        for (int n : new int[] {0, 1, 2, 3, 7, 64, 100, 999, 4096, 20_000}) {
            IntentId[] ids = new IntentId[n];
            for (int i = 0; i < n; i++) {
                ids[i] = SegmentFixtures.randomId(r);
            }
            BloomFilter filter = BloomFilter.build(ids);
            long[] expected = referenceWords(ids);
            long[] actual = new long[expected.length];
            for (int w = 0; w < actual.length; w++) {
                actual[w] = filter.region().get(dev.tala.segment.format.TbfFormat.U64, 12 + 8L * w);
            }
            assertArrayEquals(expected, actual, "n=" + n);
            // Probing agrees with the plain formula on absent ids too.
            for (int i = 0; i < 2000; i++) {
                IntentId probe = SegmentFixtures.randomId(r);
                long h1 = fnv1a(probe.toBytes());
                long h2 = fnv1a(littleEndian(h1)) + 1;
                boolean all = true;
                for (int k = 0; k < filter.numHashes(); k++) {
                    long bit = Long.remainderUnsigned(h1 + k * h2, filter.numBits());
                    all &= (expected[(int) (bit / 64)] & (1L << (bit % 64))) != 0;
                }
                assertEquals(all, filter.mightContain(probe), "n=" + n + " probe " + probe);
            }
        }
    }

    @Test
    void falsePositiveRateIsNearOnePercent() throws IOException {
        Random r = new Random(7);
        TreeSet<IntentId> present = new TreeSet<>();
        while (present.size() < 5000) {
            present.add(SegmentFixtures.randomId(r));
        }
        try (SegmentReader reader = segmentOf(present, "fpr.tbf", EmbeddingType.INT8)) {
            int falsePositives = 0;
            int probes = 0;
            while (probes < 10_000) {
                IntentId id = SegmentFixtures.randomId(r);
                if (present.contains(id)) {
                    continue;
                }
                probes++;
                if (reader.mightContain(id)) {
                    falsePositives++;
                }
            }
            double rate = falsePositives / (double) probes;
            System.out.printf("bloom false-positive rate over %d absent ids: %.4f%n", probes, rate);
            assertTrue(rate < 0.03, "false-positive rate " + rate);
            assertTrue(rate > 0.001, "a 1% filter with no false positives at all is suspicious: " + rate);
        }
    }

    /**
     * Ids outside a segment's id range are ruled out before the bloom filter is asked: of 10,000
     * absent ids around a narrow band of present ones, a 1% filter alone would pass about 100.
     */
    @Test
    void idsOutsideTheSegmentsRangeAreRuledOut() throws IOException {
        Random r = new Random(8);
        TreeSet<IntentId> present = new TreeSet<>();
        while (present.size() < 500) {
            present.add(IntentId.of(1_000 + r.nextInt(1_000), r.nextLong()));
        }
        try (SegmentReader reader = segmentOf(present, "band.tbf", EmbeddingType.F32)) {
            int passed = 0;
            for (int i = 0; i < 10_000; i++) {
                long high = i % 2 == 0 ? r.nextInt(1_000) : 2_000 + r.nextInt(1 << 20);
                if (reader.mightContain(IntentId.of(high, r.nextLong()))) {
                    passed++;
                }
            }
            assertEquals(0, passed, "absent ids outside the band that the segment did not rule out");
        }
    }

    /** A segment holding a 2-d intent for each id, opened; every id must pass its filter. */
    private SegmentReader segmentOf(TreeSet<IntentId> ids, String name, EmbeddingType type) throws IOException {
        List<IntentVersion> versions = new ArrayList<>();
        for (IntentId id : ids) {
            versions.add(IntentVersion.put(1, Intent.builder().id(id).embedding(new float[] {0.5f, 1f}).build()));
        }
        Path file = dir.resolve(name);
        SegmentFixtures.write(file, SegmentWriteOptions.of(2, 0, 2, type), versions);
        SegmentReader reader = SegmentFixtures.open(file);
        for (IntentId id : ids) {
            assertTrue(reader.mightContain(id), "no false negative for " + id);
        }
        return reader;
    }
}
