package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * a model-checked stress test. Ids come in groups of K; every write to a group is one
 * atomic batch over all K ids (put all, delete all, or attach an outcome to all), numbered by
 * a per-group generation. A snapshot must show every group at one generation (never half a
 * batch), at a generation at least the one acknowledged before the snapshot was taken and at
 * most the one started after it, with exactly the content the model says; get, scan, search,
 * countIntents, forEachIntent, edges and traverse must agree; the snapshot must read the same
 * a while later. Memtables are tiny so flushes and compactions run all the time, and a
 * maintenance thread runs compact, compactRange, flush and stats meanwhile.
 */
class SnapshotModelStressTest {
    static final int DIM = 8;
    static final int K = 3;
    static final int WRITERS = 3;
    static final int GROUPS_PER_WRITER = 12;
    static final int GROUPS = WRITERS * GROUPS_PER_WRITER;
    static final int MAX_GEN = 1 << 20;

    @TempDir
    Path dir;

    /** What generation {@code gen} of a group wrote. kind: 0 put, 1 delete, 2 outcome. cmdGen: the put it builds on. */
    record GenState(int kind, int cmdGen) {
    }

    final IntentId[][] ids = new IntentId[GROUPS][K];
    final Map<Long, GenState> model = new ConcurrentHashMap<>();
    final AtomicLongArray started = new AtomicLongArray(GROUPS);
    final AtomicLongArray acked = new AtomicLongArray(GROUPS);
    final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    final AtomicBoolean running = new AtomicBoolean(true);

    static long key(int g, long gen) {
        return (long) g * MAX_GEN + gen;
    }

    static long timestamp(int g, int gen) {
        return 1_000_000L + gen * 1000L + g;
    }

    static float[] embedding(int g, int k) {
        float[] v = new float[DIM];
        v[(g + k) % DIM] = 1f;
        v[(g * 7 + k + 1) % DIM] = 0.5f + g * 0.01f;
        return v;
    }

    Intent intent(int g, int k, int gen) {
        return Intent.builder().id(ids[g][k]).timestampNs(timestamp(g, gen)).command("g" + g + "-" + gen)
                .confidence(0.5f).status(Status.PENDING).embedding(embedding(g, k))
                .addEdge(ids[g][(k + 1) % K], Relation.RETRY, 1f).build();
    }

    /** The generation an intent shows (its put or its outcome), checked against the model. */
    int genOf(int g, Intent x) {
        String c = x.command();
        int cmdGen = Integer.parseInt(c.substring(c.indexOf('-') + 1));
        int gen = x.outcome() == null ? cmdGen : (int) x.outcome().latencyNs();
        GenState s = model.get(key(g, gen));
        if (s == null) {
            throw new AssertionError("group " + g + " shows generation " + gen + " nobody wrote: " + x);
        }
        if (s.kind == 1 || s.cmdGen != cmdGen) {
            throw new AssertionError("group " + g + " gen " + gen + " is " + s + " but reads " + x);
        }
        if (s.kind == 2 && (x.status() != Status.SUCCESS)) {
            throw new AssertionError("outcome gen without SUCCESS: " + x);
        }
        return gen;
    }

    @Test
    void snapshotsAreConsistentCutsUnderConstantFlushAndCompaction() throws Exception {
        run(Options.builder().dimension(DIM).memtableBytes(8 * 1024).durability(Durability.none()).build());
    }

    /** SYNC writes, leveled policy, tiny output segments (several per compaction), MANIFEST rewrites, WAL reuse. */
    @Test
    void sameUnderSyncLeveledSmallOutputsAndRecycling() throws Exception {
        run(Options.builder().dimension(DIM).memtableBytes(8 * 1024).durability(Durability.sync())
                .compactionPolicy(dev.tala.compaction.LeveledPolicy.withDefaults()).targetSegmentBytes(4096)
                .manifestRewriteBytes(8 * 1024).walRecycleFiles(2).maxImmutableMemtables(4).build());
    }

    private void run(Options options) throws Exception {
        Random seedRandom = new Random(42);
        Map<IntentId, Integer> groupOf = new HashMap<>();
        for (int g = 0; g < GROUPS; g++) {
            for (int k = 0; k < K; k++) {
                ids[g][k] = IntentId.of(seedRandom.nextLong(), seedRandom.nextLong());
                groupOf.put(ids[g][k], g);
            }
            model.put(key(g, 0), new GenState(1, 0)); // gen 0: never written = absent
        }
        AtomicLong snapshotsChecked = new AtomicLong();
        AtomicLong writesDone = new AtomicLong();
        long durationMs = Boolean.getBoolean("tala.long") ? 60_000 : 6_000;
        try (TalaDB db = TalaDB.open(dir, options)) {
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                final int writer = w;
                threads.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
                    Random r = new Random(100 + writer);
                    int[] gen = new int[GROUPS];
                    int[] cmdGen = new int[GROUPS];
                    boolean[] live = new boolean[GROUPS];
                    try {
                        while (running.get()) {
                            int g = writer * GROUPS_PER_WRITER + r.nextInt(GROUPS_PER_WRITER);
                            int next = ++gen[g];
                            int p = r.nextInt(10);
                            WriteBatch b = new WriteBatch();
                            GenState s;
                            if (p < 2) {
                                for (int k = 0; k < K; k++) {
                                    b.delete(ids[g][k]);
                                }
                                s = new GenState(1, 0);
                            } else if (p < 4 && live[g]) {
                                for (int k = 0; k < K; k++) {
                                    b.attachOutcome(ids[g][k], Status.SUCCESS, new Outcome(next, 0));
                                }
                                s = new GenState(2, cmdGen[g]);
                            } else {
                                for (int k = 0; k < K; k++) {
                                    b.put(intent(g, k, next));
                                }
                                s = new GenState(0, next);
                            }
                            model.put(key(g, next), s);
                            started.set(g, next);
                            db.write(b);
                            acked.set(g, next);
                            writesDone.incrementAndGet();
                            live[g] = s.kind != 1;
                            if (s.kind == 0) {
                                cmdGen[g] = next;
                            }
                            // read-your-writes, through the database (not a held snapshot)
                            Optional<Intent> back = db.get(ids[g][r.nextInt(K)]);
                            if (live[g] != back.isPresent() || (live[g] && genOf(g, back.get()) != next)) {
                                throw new AssertionError("read-your-writes: group " + g + " gen " + next + " ("
                                        + s + ") read back " + back);
                            }
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }));
            }
            for (int rd = 0; rd < 2; rd++) {
                final int reader = rd;
                threads.add(Thread.ofPlatform().name("reader-" + rd).start(() -> {
                    Random r = new Random(200 + reader);
                    try {
                        while (running.get()) {
                            long[] before = new long[GROUPS];
                            for (int g = 0; g < GROUPS; g++) {
                                before[g] = acked.get(g);
                            }
                            try (Snapshot s = db.snapshot()) {
                                long[] after = new long[GROUPS];
                                for (int g = 0; g < GROUPS; g++) {
                                    after[g] = started.get(g);
                                }
                                Map<IntentId, Intent> seen = checkSnapshot(s, before, after, groupOf, r);
                                Thread.sleep(r.nextInt(3));
                                Map<IntentId, Intent> again = new HashMap<>();
                                for (int g = 0; g < GROUPS; g++) {
                                    for (int k = 0; k < K; k++) {
                                        s.get(ids[g][k]).ifPresent(x -> again.put(x.id(), x));
                                    }
                                }
                                if (!again.equals(seen)) {
                                    throw new AssertionError("the snapshot changed while held");
                                }
                                snapshotsChecked.incrementAndGet();
                            }
                        }
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }));
            }
            threads.add(Thread.ofPlatform().name("maintenance").start(() -> {
                Random r = new Random(300);
                try {
                    while (running.get()) {
                        switch (r.nextInt(5)) {
                            case 0 -> db.compact();
                            case 1 -> db.compactRange(timestamp(0, r.nextInt(50)), timestamp(0, 50 + r.nextInt(200)),
                                    CompactionProgress.Listener.NONE);
                            case 2 -> db.flush();
                            case 3 -> db.compactPending(CompactionProgress.Listener.NONE);
                            default -> db.stats();
                        }
                        Thread.sleep(r.nextInt(20));
                    }
                } catch (Throwable t) {
                    errors.add(t);
                }
            }));
            // The planned time, and on (up to a cap) until the counts asserted below are reached:
            // a loaded machine takes longer rather than failing for being slow.
            long start = System.currentTimeMillis();
            long planned = start + durationMs;
            long cap = start + durationMs + 90_000;
            while (errors.isEmpty() && System.currentTimeMillis() < cap
                    && (System.currentTimeMillis() < planned || !enoughRan(db.stats(), snapshotsChecked.get()))) {
                Thread.sleep(50);
            }
            running.set(false);
            for (Thread t : threads) {
                t.join(30_000);
                assertTrue(!t.isAlive(), () -> t.getName() + " hangs at\n" + Threads.dumpAll());
            }
            if (!errors.isEmpty()) {
                AssertionError failure = new AssertionError(errors.size() + " thread(s) failed; first: "
                        + errors.peek());
                errors.forEach(failure::addSuppressed);
                throw failure;
            }
            DbStats stats = db.stats();
            System.out.println("snapshot model stress: " + writesDone.get() + " batches, " + snapshotsChecked.get()
                    + " snapshots checked; " + stats);
            assertTrue(enoughRan(stats, snapshotsChecked.get()), snapshotsChecked.get() + " snapshots checked; " + stats);
        }
    }

    private static boolean enoughRan(DbStats stats, long snapshotsChecked) {
        return stats.flushes() > 10 && stats.compactions() > 3 && snapshotsChecked > 20;
    }

    private Map<IntentId, Intent> checkSnapshot(Snapshot s, long[] before, long[] after, Map<IntentId, Integer> groupOf,
                                                Random r) {
        Map<IntentId, Intent> byGet = new HashMap<>();
        for (int g = 0; g < GROUPS; g++) {
            Set<Integer> gens = new HashSet<>();
            int present = 0;
            for (int k = 0; k < K; k++) {
                Optional<Intent> x = s.get(ids[g][k]);
                if (x.isPresent()) {
                    present++;
                    gens.add(genOf(g, x.get()));
                    byGet.put(ids[g][k], x.get());
                }
            }
            if (present != 0 && present != K || gens.size() > 1) {
                throw new AssertionError("half a batch: group " + g + " has " + present + " of " + K
                        + " ids at generations " + gens + " (snapshot seq " + s.sequence() + ")");
            }
            if (present == K) {
                int gen = gens.iterator().next();
                if (gen < before[g] || gen > after[g]) {
                    throw new AssertionError("group " + g + " at gen " + gen + " outside [" + before[g] + ", "
                            + after[g] + "]");
                }
            } else {
                boolean deletedInRange = false;
                for (long gen = before[g]; gen <= after[g]; gen++) {
                    GenState st = model.get(key(g, gen));
                    deletedInRange |= st != null && st.kind == 1;
                }
                if (!deletedInRange) {
                    throw new AssertionError("group " + g + " absent, but no generation in [" + before[g] + ", "
                            + after[g] + "] deletes it (a deleted or lost write reappeared / vanished)");
                }
            }
        }
        // scan over everything must equal the gets
        Map<IntentId, Intent> byScan = new HashMap<>();
        s.scan(0, Long.MAX_VALUE, x -> {
            if (byScan.put(x.id(), x) != null) {
                throw new AssertionError("scan returned " + x.id() + " twice");
            }
            return true;
        });
        if (!byScan.equals(byGet)) {
            throw new AssertionError("scan disagrees with get: scan " + byScan.size() + " get " + byGet.size());
        }
        // a window of the scan
        long from = timestamp(0, r.nextInt(100));
        long to = from + r.nextInt(200_000);
        Set<IntentId> window = new HashSet<>();
        s.scan(from, to, x -> window.add(x.id()));
        Set<IntentId> expectWindow = new HashSet<>();
        for (Intent x : byGet.values()) {
            if (x.timestampNs() >= from && x.timestampNs() < to) {
                expectWindow.add(x.id());
            }
        }
        if (!window.equals(expectWindow)) {
            throw new AssertionError("scan [" + from + ", " + to + ") returned " + window.size() + " ids, expected "
                    + expectWindow.size());
        }
        if (s.countIntents() != byGet.size()) {
            throw new AssertionError("countIntents " + s.countIntents() + " vs " + byGet.size());
        }
        Map<IntentId, Intent> byEach = new HashMap<>();
        s.forEachIntent(x -> byEach.put(x.id(), x));
        if (!byEach.equals(byGet)) {
            throw new AssertionError("forEachIntent disagrees with get");
        }
        // exact search with k above the live count returns every live intent once
        List<SearchHit> hits = s.search(embedding(r.nextInt(GROUPS), 0), GROUPS * K + 5, SearchFilter.ALL);
        Map<IntentId, Intent> bySearch = new HashMap<>();
        for (SearchHit h : hits) {
            if (bySearch.put(h.intent().id(), h.intent()) != null) {
                throw new AssertionError("search returned " + h.intent().id() + " twice");
            }
        }
        if (!bySearch.equals(byGet)) {
            throw new AssertionError("search disagrees with get: search " + bySearch.size() + " get " + byGet.size());
        }
        // edges: each live id has one RETRY edge to the next id of its group, which is live too
        int g = r.nextInt(GROUPS);
        boolean live = byGet.containsKey(ids[g][0]);
        List<Hop> out = s.edgesFrom(ids[g][0]);
        List<Hop> in = s.edgesTo(ids[g][1]);
        List<Hop> cycle = s.traverse(ids[g][0], K, Set.of(), Direction.OUTGOING);
        if (live != (out.size() == 1) || live != (in.size() == 1) || (live ? K : 0) != cycle.size()) {
            throw new AssertionError("edges of group " + g + " (live " + live + "): out " + out + " in " + in
                    + " traverse " + cycle);
        }
        return byGet;
    }
}
