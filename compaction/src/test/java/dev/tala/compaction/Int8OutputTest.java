package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cold level re-encodes f32 vectors as int8; every other field must come through exactly. */
class Int8OutputTest {
    private static final int DIM = 48;

    @TempDir
    Path dir;

    @Test
    void f32InputsBecomeInt8OutputsWithEveryOtherFieldExact() throws Exception {
        RandomIntents intents = new RandomIntents(5, DIM);
        List<List<IntentVersion>> oldestFirst = new ArrayList<>();
        long sequence = 1;
        for (int s = 0; s < 3; s++) {
            TreeMap<dev.tala.core.model.IntentId, IntentVersion> rows = new TreeMap<>();
            for (int i = 0; i < 150; i++) {
                var id = intents.random().nextInt(3) == 0 ? intents.knownId() : intents.newId();
                rows.put(id, intents.random().nextInt(8) == 0 ? IntentVersion.tombstone(id, sequence++)
                        : IntentVersion.put(sequence++, intents.next(id)));
            }
            oldestFirst.add(new ArrayList<>(rows.values()));
        }
        List<SegmentReader> inputs = new ArrayList<>();
        for (int s = oldestFirst.size() - 1; s >= 0; s--) {
            inputs.add(SegmentFiles.writeInput(dir, s + 1, DIM, EmbeddingType.F32, oldestFirst.get(s)));
        }
        try {
            AtomicLong ids = new AtomicLong(50);
            CompactionJob job = new CompactionJob(SegmentFiles.LOCAL,
                    CompactionJobOptions.defaults(EmbeddingType.INT8).withTargetOutputBytes(40_000).withSync(false),
                    ids::getAndIncrement, id -> SegmentFiles.path(dir, id));
            CompactionResult result = job.run(inputs, 3, false);
            List<IntentVersion> expected = MergePropertyTest.model(oldestFirst, false);
            assertTrue(result.outputs().size() > 1, "the test should span several outputs");

            List<IntentVersion> actual = new ArrayList<>();
            for (var summary : result.outputs()) {
                try (SegmentReader out = SegmentReader.open(SegmentFiles.LOCAL, summary.path())) {
                    out.verify();
                    assertEquals(EmbeddingType.INT8, out.dtype());
                    assertEquals(EmbeddingType.INT8.stride(DIM), out.stride());
                    actual.addAll(SegmentFiles.readAll(out));
                }
            }
            assertEquals(expected.size(), actual.size());
            int lossy = 0;
            for (int i = 0; i < expected.size(); i++) {
                IntentVersion e = expected.get(i);
                IntentVersion a = actual.get(i);
                assertEquals(e.id(), a.id());
                assertEquals(e.sequence(), a.sequence());
                if (e.isTombstone()) {
                    assertNull(a.intent());
                    continue;
                }
                Intent ei = e.intent();
                Intent ai = a.intent();
                assertEquals(ei.timestampNs(), ai.timestampNs());
                assertEquals(ei.contextHash(), ai.contextHash());
                assertEquals(Float.floatToIntBits(ei.confidence()), Float.floatToIntBits(ai.confidence()));
                assertEquals(ei.status(), ai.status());
                assertEquals(ei.outcome(), ai.outcome());
                assertEquals(ei.command(), ai.command());
                assertEquals(ei.edges(), ai.edges());
                // Symmetric int8: each component within half a quantization step of the original.
                float[] ev = ei.embedding();
                float[] av = ai.embedding();
                float maxAbs = 0;
                for (float x : ev) {
                    maxAbs = Math.max(maxAbs, Math.abs(x));
                }
                float halfStep = maxAbs / 127f / 2f;
                for (int k = 0; k < DIM; k++) {
                    assertEquals(ev[k], av[k], halfStep * 1.001f + 1e-6f, "component " + k + " of " + e.id());
                }
                // Also rebuild the intent with the original vector: then it must be equal in full.
                assertEquals(ei, ai.toBuilder().embedding(ev).build());
                if (!java.util.Arrays.equals(ev, av)) {
                    lossy++;
                }
            }
            assertNotEquals(0, lossy, "int8 must actually have re-encoded the vectors");
            assertArrayEquals(new long[] {3}, result.metas().stream().mapToLong(m -> m.level()).distinct().toArray());
        } finally {
            SegmentFiles.closeAll(inputs);
        }
    }
}
