package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Relation;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Write and space amplification of the two policies on simulated flush streams. The figures in
 * docs/COMPACTION.md come from this class's output
 * (target/surefire-reports/dev.tala.compaction.AmplificationSimulationTest-output.txt).
 */
class AmplificationSimulationTest {
    private static final int FLUSHES = 1000;
    private static final int OPERATIONS_PER_FLUSH = 1000; // 1M operations in all
    private static final int DIM = 384;

    /** Bytes of a typical put row: 384-d f32, a 32-byte command, two edges, CSC on. */
    static final long PUT_BYTES = estimator().estimate(IntentVersion.put(1, typicalIntent()));
    /** Bytes of a tombstone row. */
    static final long TOMBSTONE_BYTES = estimator().estimate(IntentVersion.tombstone(IntentId.of(0, 1), 1));
    static final long FLUSH_BYTES = OPERATIONS_PER_FLUSH * PUT_BYTES;

    static TieredPolicy tiered() {
        return new TieredPolicy(TieredSettings.defaults());
    }

    /** The tiered defaults with the tombstone check off. */
    static TieredPolicy sizeOnly() {
        TieredSettings d = TieredSettings.defaults();
        return new TieredPolicy(new TieredSettings(d.minMergeWidth(), d.maxMergeWidth(), d.sizeRatio(), d.maxLevel(), 0));
    }

    /** Level 1 holds what level 0 holds at its trigger (RocksDB's advice); 10x per level. */
    static LeveledPolicy leveled() {
        return new LeveledPolicy(new LeveledSettings(CompactionDefaults.LEVELED_L0_TRIGGER,
                CompactionDefaults.LEVELED_L0_TRIGGER * FLUSH_BYTES, CompactionDefaults.LEVELED_SIZE_MULTIPLIER,
                CompactionDefaults.MAX_LEVEL));
    }

    @Test
    void equalFlushesCostLessWriteAmplificationTiered() {
        SimulatedWorkload stream = SimulatedWorkload.appendOnly(FLUSHES, OPERATIONS_PER_FLUSH, PUT_BYTES);
        SimulationResult t = AmplificationSimulator.simulate(tiered(), stream);
        SimulationResult l = AmplificationSimulator.simulate(leveled(), stream);
        report("1,000 equal flushes of 1,000 new intents (append only)", stream, t, l);

        assertEquals(FLUSHES * FLUSH_BYTES, t.bytesFlushed());
        assertTrue(t.writeAmplification() >= 1 && l.writeAmplification() >= 1);
        assertTrue(t.writeAmplification() < l.writeAmplification(),
                "tiered " + t.writeAmplification() + " vs leveled " + l.writeAmplification());
        // Each merge doubles (or more) the size of a run, so a byte is rewritten about
        // log2(1000 / 4) + 1 times; leveled rewrites about 10/2 times per level, 3 levels.
        assertTrue(t.writeAmplification() > 3 && t.writeAmplification() < 15, t.summary());
        assertTrue(l.writeAmplification() < 40, l.summary());
        // Nothing is ever overwritten, so at rest every byte on disk is live.
        assertEquals(1.0, t.finalSpaceAmplification(), 1e-9);
        assertEquals(1.0, l.finalSpaceAmplification(), 1e-9);
        assertEquals(1.0, t.maxSpaceAmplification(), 1e-9);
        // A merge needs its output's space beside its inputs.
        assertTrue(t.peakTransientSpaceAmplification() > 1.0 && t.peakTransientSpaceAmplification() <= 2.0);
        // Read amplification stays logarithmic.
        assertTrue(t.maxSegments() <= 3 * 10, t.summary());
    }

    @Test
    void intentLikeStreamWithOutcomeUpdatesAndDeletes() {
        // 1M operations: 5% rewrite an intent of the last 2 flushes (an outcome attached), 1%
        // delete a random older intent, the rest append new time-ordered intents.
        SimulatedWorkload stream = new SimulatedWorkload(FLUSHES, OPERATIONS_PER_FLUSH, PUT_BYTES, TOMBSTONE_BYTES,
                0.05, 0.01, 2, 1);
        SimulationResult t = AmplificationSimulator.simulate(tiered(), stream);
        SimulationResult l = AmplificationSimulator.simulate(leveled(), stream);
        report("1,000 flushes of 1,000 operations: 94% new intents, 5% outcome updates of the last 2 flushes,"
                + " 1% deletes", stream, t, l);

        for (SimulationResult r : List.of(t, l)) {
            assertTrue(r.writeAmplification() >= 1, r.summary());
            assertTrue(r.finalSpaceAmplification() >= 1 && r.maxSpaceAmplification() >= r.finalSpaceAmplification(),
                    r.summary());
            assertTrue(r.maxSpaceAmplification() < 2, r.summary());
        }
        assertTrue(t.writeAmplification() < l.writeAmplification());
    }

    @Test
    void heavyDeletesAreReclaimedSoonerWithTheTombstoneTrigger() {
        // Half the operations rewrite a recent intent, 45% delete a random older one: the live
        // data grows slowly, so the size ratio seldom reaches the oldest run.
        SimulatedWorkload stream = new SimulatedWorkload(FLUSHES, OPERATIONS_PER_FLUSH, PUT_BYTES, TOMBSTONE_BYTES,
                0.50, 0.45, 2, 1);
        SimulationResult with = AmplificationSimulator.simulate(tiered(), stream);
        SimulationResult without = AmplificationSimulator.simulate(sizeOnly(), stream);
        report("1,000 flushes of 1,000 operations: 5% new intents, 50% rewrites of the last 2 flushes, 45% deletes;"
                + " tiered with the tombstone trigger, then without", stream, with, without);

        assertTrue(with.maxSpaceAmplification() < without.maxSpaceAmplification() - 0.2,
                with.summary() + " against " + without.summary());
        assertTrue(with.writeAmplification() < 1.5 * without.writeAmplification(),
                with.summary() + " against " + without.summary());
    }

    /**
     * A queue: half the operations add an intent, 45% delete one of the last 2 flushes. The
     * tombstones meet their rows in young merges, which drop both (nothing older holds their
     * ids), so the tombstone check, which counts what is left, costs no extra merge.
     */
    @Test
    void deletesOfRecentIntentsDoNotTripTheTombstoneCheck() {
        SimulatedWorkload stream = new SimulatedWorkload(FLUSHES, OPERATIONS_PER_FLUSH, PUT_BYTES, TOMBSTONE_BYTES,
                0.05, 0.45, 2, 1, 2);
        SimulationResult with = AmplificationSimulator.simulate(tiered(), stream);
        SimulationResult without = AmplificationSimulator.simulate(sizeOnly(), stream);
        report("1,000 flushes of 1,000 operations: 50% new intents, 5% rewrites and 45% deletes of the last 2"
                + " flushes (a queue); tiered with the tombstone trigger, then without", stream, with, without);

        assertTrue(with.writeAmplification() <= 1.05 * without.writeAmplification(),
                with.summary() + " against " + without.summary());
        assertTrue(with.maxSpaceAmplification() < 1.5, with.summary());
    }

    @Test
    void theSimulationIsAPureFunction() {
        SimulatedWorkload stream = new SimulatedWorkload(200, 100, 1000, 50, 0.1, 0.05, 3, 99);
        assertEquals(AmplificationSimulator.simulate(tiered(), stream),
                AmplificationSimulator.simulate(tiered(), stream));
    }

    @Test
    void aPolicyThatNeverSettlesIsReported() {
        CompactionPolicy restless = new CompactionPolicy() {
            @Override
            public Optional<CompactionChoice> pick(List<SegmentMeta> live) {
                return RunSelections.full(live, 1);
            }

            @Override
            public int maxLevel() {
                return 1;
            }

            @Override
            public String name() {
                return "restless";
            }
        };
        assertThrows(IllegalStateException.class, () -> AmplificationSimulator.simulate(restless,
                SimulatedWorkload.appendOnly(2, 10, 100)));
    }

    @Test
    void aPolicyChoosingANonContiguousRunIsCaught() {
        CompactionPolicy gappy = new CompactionPolicy() {
            @Override
            public Optional<CompactionChoice> pick(List<SegmentMeta> live) {
                return live.size() < 3 ? Optional.empty()
                        : Optional.of(new CompactionChoice(List.of(live.get(0), live.get(2)), 1, false,
                                CompactionChoice.Reason.SIZE_RATIO));
            }

            @Override
            public int maxLevel() {
                return 1;
            }

            @Override
            public String name() {
                return "gappy";
            }
        };
        assertThrows(IllegalStateException.class, () -> AmplificationSimulator.simulate(gappy,
                SimulatedWorkload.appendOnly(5, 10, 100)));
    }

    private static void report(String title, SimulatedWorkload stream, SimulationResult... results) {
        System.out.println("== " + title);
        System.out.println("   workload: " + stream + ", put row " + PUT_BYTES + " B, tombstone row "
                + TOMBSTONE_BYTES + " B, flush " + FLUSH_BYTES + " B");
        System.out.println("   tiered: " + tiered().settings() + "; leveled: " + leveled().settings());
        for (SimulationResult r : results) {
            System.out.println("   " + r.summary());
        }
    }

    private static RowSizeEstimator estimator() {
        return new RowSizeEstimator(DIM, EmbeddingType.F32, true);
    }

    private static Intent typicalIntent() {
        return Intent.builder()
                .id(IntentId.of(1, 1))
                .timestampNs(1)
                .command("kubectl rollout restart deploy/x") // 32 bytes
                .embedding(new float[DIM])
                .edges(List.of(new Edge(IntentId.of(1, 2), Relation.CAUSAL, 1f),
                        new Edge(IntentId.of(1, 3), Relation.TEMPORAL, 1f)))
                .build();
    }
}
