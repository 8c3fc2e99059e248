package dev.tala.tests.crash;

import dev.tala.compaction.CompactionStats;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The crash windows the sweeps cover (docs/RECOVERY.md lists what each one exercises). */
public final class Scenarios {
    static final int DIM = 16;

    private Scenarios() {
    }

    public static List<CrashScenario> all(long seed) {
        return List.of(flush(seed), walSwitch(seed), walReuse(seed), manifestRewrite(seed), compaction(seed),
                compactionMove(seed), recovery(seed, "recovery", 4L * 1024 * 1024),
                recovery(seed, "recovery-rewrite", 1), replaySplit(seed), shortLived(seed));
    }

    private static Options.Builder base() {
        return Options.builder().dimension(DIM).durability(Durability.sync());
    }

    private static void steps(TalaDB db, Ledger ledger, long seed, int n) {
        Workload w = new Workload(seed, db.dimension());
        for (int i = 0; i < n; i++) {
            w.step(db, ledger);
        }
    }

    /** A flush: segment written with is_partial, forced, sealed, directory synced, MANIFEST edit, WAL deleted. */
    public static CrashScenario flush(long seed) {
        return new Simple("flush", base().memtableBytes(1 << 20).build(),
                (db, l) -> steps(db, l, seed, 150),
                (db, l) -> db.flush());
    }

    /** Memtable switches under writes: WAL rotation (force, new file, directory sync) with flushes behind. */
    public static CrashScenario walSwitch(long seed) {
        return new Simple("wal-switch", base().memtableBytes(16 * 1024).build(),
                (db, l) -> steps(db, l, seed, 10),
                (db, l) -> steps(db, l, seed + 1, 60));
    }

    /**
     * Memtable switches with WAL files recycled: a flushed WAL file is renamed aside and
     * zero-filled in the background, and a later switch renames it back into use and writes its
     * header over the zeros.
     */
    public static CrashScenario walReuse(long seed) {
        return new Simple("wal-reuse", base().memtableBytes(16 * 1024).walRecycleFiles(2).build(),
                (db, l) -> {
                    steps(db, l, seed, 60);
                    db.flush();
                    awaitFreeWalFile(db);
                },
                (db, l) -> steps(db, l, seed + 1, 60));
    }

    /** Waits (a bounded time) for the background zero-fill of a retired WAL file, so the window starts with one. */
    private static void awaitFreeWalFile(TalaDB db) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (db.stats().walFreeFiles() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no retired WAL file was zero-filled within 10 s");
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Every MANIFEST append is a rewrite: temporary file, force, rename, directory sync. */
    public static CrashScenario manifestRewrite(long seed) {
        return new Simple("manifest-rewrite", base().memtableBytes(1 << 20).manifestRewriteBytes(1).build(),
                (db, l) -> {
                    steps(db, l, seed, 80);
                    db.flush();
                    steps(db, l, seed + 1, 40);
                },
                (db, l) -> db.flush());
    }

    /**
     * Flushes of memtables whose intents were all deleted before the flush: no live segment holds
     * their ids, so the tombstones are left out and the flush writes no segment, only the edit
     * that retires its WAL files. Then young flushes (puts, then their deletes, kept since the
     * puts are in a segment, and the delete of an old intent) and a merge of them that is not
     * bottommost: it drops the young tombstones, whose ids the old run's bloom filter does not
     * hold, and keeps the old intent's.
     */
    public static CrashScenario shortLived(long seed) {
        return new Simple("short-lived", base().memtableBytes(1 << 20).backgroundCompaction(false).build(),
                (db, l) -> {
                    steps(db, l, seed, 150);
                    db.flush();
                    db.compact(p -> { });
                    shortLivedIntents(db, l, new RandomIntents(seed + 1, DIM), 10, false);
                },
                (db, l) -> {
                    RandomIntents intents = new RandomIntents(seed + 2, DIM);
                    db.flush();
                    shortLivedIntents(db, l, intents, 10, false);
                    db.flush();
                    IntentId old = l.ids().stream().filter(id -> l.current(id).isPresent()).findFirst().orElseThrow();
                    delete(db, l, old);
                    shortLivedIntents(db, l, intents, 5, true);
                    for (int i = 0; i < 2; i++) {
                        put(db, l, intents.next());
                        db.flush();
                    }
                    long dropped = db.compactPending(p -> { }).stream()
                            .mapToLong(CompactionStats::tombstonesDropped).sum();
                    long tombstonesLeft = db.liveSegments().stream().mapToLong(m -> m.tombstones()).sum();
                    // At least, not exactly: the counts vary with the seed (seeds 4 and 5 of the
                    // long run dropped 6 and left 2, every write accounted for).
                    if (dropped < 5 || tombstonesLeft < 1) {
                        throw new IllegalStateException("the scenario expected a merge above the old run dropping"
                                + " the 5 young tombstones and keeping the old intent's: " + dropped + " dropped, "
                                + db.liveSegments());
                    }
                });
    }

    /**
     * Puts {@code n} new intents and deletes them all, each write recorded in {@code ledger};
     * with {@code flushBetween}, the puts are flushed before the deletes and the deletes after.
     */
    private static void shortLivedIntents(TalaDB db, Ledger ledger, RandomIntents intents, int n,
                                          boolean flushBetween) {
        List<Intent> written = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Intent x = intents.next();
            put(db, ledger, x);
            written.add(x);
        }
        if (flushBetween) {
            db.flush();
        }
        for (Intent x : written) {
            delete(db, ledger, x.id());
        }
        if (flushBetween) {
            db.flush();
        }
    }

    /** Puts {@code x}, recorded in {@code ledger} before and after. */
    private static void put(TalaDB db, Ledger ledger, Intent x) {
        Map<IntentId, Optional<Intent>> effect = Map.of(x.id(), Optional.of(x));
        ledger.begin(effect);
        db.put(x);
        ledger.acknowledge(effect);
    }

    /** Deletes {@code id}, recorded in {@code ledger} before and after. */
    private static void delete(TalaDB db, Ledger ledger, IntentId id) {
        Map<IntentId, Optional<Intent>> effect = Map.of(id, Optional.empty());
        ledger.begin(effect);
        db.delete(id);
        ledger.acknowledge(effect);
    }

    /** A full compaction: outputs written like flushes, one MANIFEST edit swapping them for the inputs, inputs deleted. */
    public static CrashScenario compaction(long seed) {
        return new Simple("compaction", base().memtableBytes(32 * 1024).backgroundCompaction(false).build(),
                (db, l) -> {
                    steps(db, l, seed, 150);
                    db.flush();
                },
                (db, l) -> db.compact(p -> { }));
    }

    /**
     * A compaction done as a move, then a merge of the moved segments: four flushes of ascending
     * ids share none, so the first full compaction only re-labels them in one MANIFEST edit and
     * keeps their files; writes of random ids and a flush then overlap them, and the second full
     * compaction merges everything and deletes the moved files.
     */
    public static CrashScenario compactionMove(long seed) {
        return new Simple("compaction-move", base().memtableBytes(1 << 20).targetSegmentBytes(16 * 1024)
                .backgroundCompaction(false).build(),
                (db, l) -> {
                    RandomIntents intents = new RandomIntents(seed, DIM);
                    List<IntentId> ascending = intents.newIdsAscending(120);
                    for (int i = 0; i < ascending.size(); i++) {
                        put(db, l, intents.next(ascending.get(i)));
                        if (i % 30 == 29) {
                            db.flush();
                        }
                    }
                },
                (db, l) -> {
                    boolean moved = db.compact(p -> { }).orElseThrow().moved();
                    if (!moved) {
                        throw new IllegalStateException("the scenario expected its first compaction to be a move");
                    }
                    steps(db, l, seed + 1, 8);
                    db.flush();
                    db.compact(p -> { });
                });
    }

    /**
     * A crash while opening after a crash: truncating torn tails, retiring WAL files, starting a
     * WAL file, and (with a tiny rewrite threshold) rewriting the MANIFEST.
     */
    public static CrashScenario recovery(long seed, String name, long manifestRewriteBytes) {
        return new CrashScenario() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Options options() {
                return base().memtableBytes(1 << 20).manifestRewriteBytes(manifestRewriteBytes).build();
            }

            @Override
            public void prepare(TalaDB db, Ledger ledger) {
                steps(db, ledger, seed, 80);
                db.flush();
                steps(db, ledger, seed + 1, 40);
            }

            @Override
            public void crashWindow(TalaDB db, Ledger ledger) {
                // The crash window is the open itself.
            }

            @Override
            public boolean crashesDuringOpen() {
                return true;
            }
        };
    }

    /**
     * A WAL holding several memtables' worth, replayed by an open with a smaller memtable size:
     * replay freezes a memtable whenever one is full, each pinning the WAL file its first record
     * is in; once more than two wait, the open flushes the oldest into segments that one edit
     * lists at its end; and the flushes that follow the open delete WAL files while a later
     * memtable still pins the file an earlier one ends in.
     */
    public static CrashScenario replaySplit(long seed) {
        return new CrashScenario() {
            @Override
            public String name() {
                return "replay-split";
            }

            @Override
            public Options prepareOptions() {
                return base().memtableBytes(1 << 20).build();
            }

            @Override
            public Options options() {
                return base().memtableBytes(16 * 1024).backgroundCompaction(false).build();
            }

            @Override
            public void prepare(TalaDB db, Ledger ledger) {
                steps(db, ledger, seed, 150);
            }

            @Override
            public void crashWindow(TalaDB db, Ledger ledger) {
                db.flush();
                if (db.stats().flushes() < 3) {
                    throw new IllegalStateException("the scenario expected replay to fill several memtables: "
                            + db.stats());
                }
            }

            @Override
            public boolean crashesDuringOpen() {
                return true;
            }
        };
    }

    private interface Step {
        void run(TalaDB db, Ledger ledger);
    }

    private record Simple(String name, Options options, Step before, Step window) implements CrashScenario {
        @Override
        public void prepare(TalaDB db, Ledger ledger) {
            before.run(db, ledger);
        }

        @Override
        public void crashWindow(TalaDB db, Ledger ledger) {
            window.run(db, ledger);
        }
    }
}
