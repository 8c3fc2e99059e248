package dev.tala.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.TieredPolicy;
import dev.tala.compaction.TieredSettings;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.tests.crash.PowerLossSweep;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.LifecycleContext;
import net.jqwik.api.lifecycle.SkipExecutionHook;

/**
 * The same random operations go to TalaDB and to RocksDB (the oracle); every read must agree.
 * Flushes, compactions, reopenings and power failures are interleaved; a small memtable makes background flushes happen on
 * their own too. jqwik shrinks a failing sequence to a minimal one.
 */
class DifferentialTest {
    static final int DIM = 8;
    static final int ID_SLOTS = 40;

    /** An operation on both databases. Ids are slots into a fixed pool so that shrinking keeps them. */
    sealed interface Op {
        record Put(int slot, long seed) implements Op {
        }

        record Delete(int slot) implements Op {
        }

        record AttachOutcome(int slot, int status, boolean withOutcome, int latency, int exitCode) implements Op {
        }

        record Batch(List<Op> ops) implements Op {
        }

        record Get(int slot) implements Op {
        }

        record Flush() implements Op {
        }

        record Reopen() implements Op {
        }

        record Compact() implements Op {
        }

        record CompactRange(long from, long to) implements Op {
        }

        /** The power fails between two operations (a flush or compaction may be running). */
        record Crash(PowerLossMode mode, long seed) implements Op {
        }
    }

    /**
     * Ids that follow slot order, as time-ordered ids do: with puts in slot order (see
     * {@link #timeOrdered}), flushed segments share no id and their compactions are moves.
     */
    static IntentId idInOrder(int slot) {
        return IntentId.of(0x0190_0000_0000_0000L + slot, slot * 0x9E3779B97F4A7C15L);
    }

    static IntentId idOf(int slot) {
        // Spread the slots over the id space, so segment order and slot order differ.
        long h = slot * 0x9E3779B97F4A7C15L;
        return IntentId.of(h, Long.rotateLeft(h, 17) ^ slot);
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        return op().list().ofMinSize(1).ofMaxSize(120);
    }

    private static Arbitrary<Op> op() {
        Arbitrary<Integer> slot = Arbitraries.integers().between(0, ID_SLOTS - 1);
        Arbitrary<Op> put = Arbitraries.longs().flatMap(seed -> slot.map(s -> new Op.Put(s, seed)));
        Arbitrary<Op> delete = slot.map(Op.Delete::new);
        Arbitrary<Op> outcome = net.jqwik.api.Combinators.combine(slot, Arbitraries.integers().between(0, 3),
                Arbitraries.of(true, false), Arbitraries.integers().between(0, 1_000_000),
                Arbitraries.integers().between(-5, 255)).as(Op.AttachOutcome::new);
        Arbitrary<Op> write = Arbitraries.frequencyOf(Tuple.of(6, put), Tuple.of(2, delete), Tuple.of(3, outcome));
        Arbitrary<Op> batch = write.list().ofMinSize(2).ofMaxSize(5).map(Op.Batch::new);
        Arbitrary<Op> get = slot.map(Op.Get::new);
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(12, write), Tuple.of(2, batch), Tuple.of(6, get),
                Tuple.of(1, Arbitraries.just(new Op.Flush())), Tuple.of(1, Arbitraries.just(new Op.Reopen())),
                Tuple.of(1, Arbitraries.just(new Op.Compact())),
                Tuple.of(1, Arbitraries.longs().between(0, Long.MAX_VALUE / 2).map(f -> new Op.CompactRange(f, f + Long.MAX_VALUE / 4))),
                Tuple.of(1, net.jqwik.api.Combinators.combine(Arbitraries.of(PowerLossMode.class), Arbitraries.longs())
                        .as(Op.Crash::new)));
        return op;
    }

    /**
     * Operations like {@link #operations()}, with every put taking the next slot in turn
     * (wrapping around after the last, when puts become updates of the oldest ids), deletes and
     * outcomes aimed at one of the four latest puts (as an outcome follows its intent soon), and
     * ids in slot order.
     */
    @Provide
    Arbitrary<List<Op>> timeOrdered() {
        // Longer sequences than operations(): moves need several flushes and then a compaction.
        return op().list().ofMinSize(60).ofMaxSize(160).map(ops -> {
            int[] next = {0};
            return ops.stream().map(op -> inTurn(op, next)).toList();
        });
    }

    private static Op inTurn(Op op, int[] next) {
        return switch (op) {
            case Op.Put p -> new Op.Put(next[0]++ % ID_SLOTS, p.seed());
            case Op.Delete d -> new Op.Delete(recent(next, d.slot()));
            case Op.AttachOutcome o -> new Op.AttachOutcome(recent(next, o.slot()), o.status(), o.withOutcome(),
                    o.latency(), o.exitCode());
            case Op.Batch b -> new Op.Batch(b.ops().stream().map(o -> inTurn(o, next)).toList());
            default -> op;
        };
    }

    private static int recent(int[] next, int slot) {
        return Math.floorMod(next[0] - 1 - slot % 4, ID_SLOTS);
    }

    @Property(tries = 60)
    void talaAgreesWithRocksDb(@ForAll("operations") List<Op> ops) throws Exception {
        run(ops, DifferentialTest::idOf);
    }

    @Property(tries = 30)
    void talaAgreesWithRocksDbOnTimeOrderedIds(@ForAll("timeOrdered") List<Op> ops) throws Exception {
        run(ops, DifferentialTest::idInOrder);
    }

    /** The long setting of the same property (docs/TESTING.md): {@code -Dtala.long=true}. */
    @Property(tries = 3000)
    @AddLifecycleHook(OnlyInLongRuns.class)
    void talaAgreesWithRocksDbLongRun(@ForAll("operations") List<Op> ops) throws Exception {
        run(ops, DifferentialTest::idOf);
    }

    /** Skips a property unless {@code -Dtala.long=true}. */
    static final class OnlyInLongRuns implements SkipExecutionHook {
        @Override
        public SkipResult shouldBeSkipped(LifecycleContext context) {
            return Boolean.getBoolean("tala.long") ? SkipResult.doNotSkip()
                    : SkipResult.skip("a long run; enable with -Dtala.long=true");
        }
    }

    private static void run(List<Op> ops, IntFunction<IntentId> idOf) throws Exception {
        Path root = Files.createTempDirectory("differential");
        Path dir = root.resolve("tala");
        // A small memtable and a tiered policy that merges at 2 runs: flushes and background
        // compactions happen on their own between the explicit events. SYNC, so that every
        // write the oracle holds was acknowledged and must survive a crash; the fault layer
        // models forces without issuing them, which keeps SYNC cheap here.
        // A small output target, so that segments which happen to share no id are moved instead of merged.
        Options options = Options.builder().dimension(DIM).memtableBytes(8 * 1024).durability(Durability.sync())
                .compactionPolicy(new TieredPolicy(new TieredSettings(2, 8, 4.0, 6, 0.25))).targetSegmentBytes(4 * 1024)
                .build();
        long moves = 0;
        int crashes = 0;
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(root.resolve("stash-0"));
        try (RocksOracle oracle = new RocksOracle(root.resolve("rocks"))) {
            TalaDB tala = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
            try {
                for (Op op : ops) {
                    switch (op) {
                        case Op.Get g -> assertEquals(oracle.get(idOf.apply(g.slot())),
                                tala.get(idOf.apply(g.slot())), "get of slot " + g.slot());
                        case Op.Flush f -> tala.flush();
                        case Op.Compact c -> tala.compact(p -> { });
                        case Op.CompactRange c -> tala.compactRange(c.from(), c.to(), p -> { });
                        case Op.Reopen r -> {
                            moves += tala.stats().compactionMoves();
                            tala.close();
                            tala = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
                        }
                        case Op.Crash c -> {
                            moves += tala.stats().compactionMoves();
                            fs.powerLoss(c.mode(), c.seed());
                            PowerLossSweep.closeQuietly(tala);
                            fs = new FaultInjectingFileLayer(root.resolve("stash-" + ++crashes));
                            tala = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
                            assertSameContents(oracle, tala);
                        }
                        default -> applyWrite(op, tala, oracle, idOf);
                    }
                }
                assertSameContents(oracle, tala);
                moves += tala.stats().compactionMoves();
                Statistics.label("a compaction was a move").collect(moves > 0);
                tala.close();
                VerifyReport verify = DatabaseVerifier.verify(fs, new DatabaseLayout(dir));
                assertTrue(verify.isClean(), "verify: " + verify.problems());
                tala = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
                assertSameContents(oracle, tala);
            } finally {
                PowerLossSweep.closeQuietly(tala);
            }
        } finally {
            deleteTree(root);
        }
    }

    private static void applyWrite(Op op, TalaDB tala, RocksOracle oracle, IntFunction<IntentId> idOf)
            throws Exception {
        List<RocksOracle.Write> writes = new ArrayList<>();
        WriteBatch batch = new WriteBatch();
        for (Op w : op instanceof Op.Batch b ? b.ops() : List.of(op)) {
            switch (w) {
                case Op.Put p -> {
                    Intent intent = new RandomIntents(p.seed(), DIM).next(idOf.apply(p.slot()));
                    writes.add(new RocksOracle.Write.Put(intent));
                    batch.put(intent);
                }
                case Op.Delete d -> {
                    writes.add(new RocksOracle.Write.Delete(idOf.apply(d.slot())));
                    batch.delete(idOf.apply(d.slot()));
                }
                case Op.AttachOutcome o -> {
                    Status status = Status.values()[o.status()];
                    Outcome outcome = o.withOutcome() ? new Outcome(o.latency(), o.exitCode()) : null;
                    writes.add(new RocksOracle.Write.AttachOutcome(idOf.apply(o.slot()), status, outcome));
                    batch.attachOutcome(idOf.apply(o.slot()), status, outcome);
                }
                default -> throw new IllegalStateException("not a write: " + w);
            }
        }
        boolean accepted = oracle.apply(writes);
        boolean talaAccepted;
        try {
            tala.write(batch);
            talaAccepted = true;
        } catch (InvalidIntentException e) {
            talaAccepted = false;
        }
        assertEquals(accepted, talaAccepted, "both accept or both refuse " + op);
    }

    static void assertSameContents(RocksOracle oracle, TalaDB tala) {
        List<Intent> expected = oracle.all();
        List<Intent> actual = new ArrayList<>();
        try (var snapshot = tala.snapshot()) {
            snapshot.forEachIntent(actual::add);
            assertEquals(expected.size(), snapshot.countIntents());
        }
        assertEquals(expected, actual, "full contents in id order");
    }

    static void deleteTree(Path root) throws java.io.IOException {
        FileTrees.delete(root);
    }
}
