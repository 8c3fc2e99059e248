package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.segment.EmbeddingCodec;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every public read compared with a brute-force model after random writes over a small id pool
 * (so overwrites, deletes and outcome updates hit the same ids again and again), timestamps
 * drawn from a few values with ties and both extremes, a handful of embeddings (so scores tie
 * exactly), edges to missing, deleted and self targets, duplicate edges, and batches; with
 * flushes, compactions and reopens in between, and snapshots held across later writes.
 */
class ReadModelAuditTest {
    static final int DIM = 4;
    static final long MAX_TS = IntentLimits.MAX_TIMESTAMP_NS;
    static final long[] STAMPS = {0, 1, 2, 2, 7, 1_000_000, MAX_TS - 1, MAX_TS};
    static final float[][] VECTORS = {
        {1, 0, 0, 0}, {0, 1, 0, 0}, {1, 1, 0, 0}, {0.5f, 0.25f, -1, 3}, {-1, -1, -1, -1},
        {0.1f, 0.2f, 0.3f, 0.4f}, {3, 0, 0, 0}, {0, 0, 0, 0}, {1e-3f, -2e-3f, 5e-3f, 0},
    };
    static final String[] COMMANDS = {"", "c1", "c1", "kubectl rollout restart deploy/api \u00e9\u4e2d\ud83d\ude80",
        "x".repeat(5000), "\u0000 nul"};
    static final float[] WEIGHTS = {1, 0.5f, -0.0f, 0, 2.5f};

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(EmbeddingType.class)
    void everyReadAgreesWithTheModel(EmbeddingType type) {
        for (int seed = 0; seed < Integer.getInteger("audit.seeds", 6); seed++) {
            run(type, seed, 300, Options.builder());
        }
    }

    /**
     * Small leveled levels and 4 KiB outputs: several segments per level with overlapping
     * sequence ranges, moves, and background compactions running beside the reads.
     */
    @ParameterizedTest
    @EnumSource(value = EmbeddingType.class, names = {"F32", "INT8"})
    void everyReadAgreesWithTheModelUnderSmallLeveledCompaction(EmbeddingType type) {
        for (int seed = 100; seed < 100 + Integer.getInteger("audit.seeds", 6); seed++) {
            run(type, seed, 400, Options.builder()
                    .compactionPolicy(new dev.tala.compaction.LeveledPolicy(
                            new dev.tala.compaction.LeveledSettings(2, 6 * 1024, 2, 4)))
                    .targetSegmentBytes(4096));
        }
    }

    /**
     * An f32 database whose level 1 and deeper store int8: an intent reads back its floats as
     * put, or their int8 approximation once a compaction wrote it there. Which of the two the
     * model cannot tell, so it takes get's answer where it is one of them, and every other read
     * must agree with it.
     */
    @ParameterizedTest
    @EnumSource(value = EmbeddingType.class, names = {"INT8", "F16"})
    void everyReadAgreesWithTheModelWithAColdLevel(EmbeddingType cold) {
        for (int seed = 300; seed < 300 + Integer.getInteger("audit.seeds", 6); seed++) {
            coldType = cold;
            run(EmbeddingType.F32, seed, 400, Options.builder()
                    .compactionPolicy(new dev.tala.compaction.TieredPolicy(
                            new dev.tala.compaction.TieredSettings(2, 3, 1.0, 3, 0.25)))
                    .coldEmbeddingType(cold, 1)
                    .targetSegmentBytes(4096));
        }
    }

    /** The cold level's type, or null; only with an f32 database, where re-encoding in it is exact. */
    EmbeddingType coldType;

    @ParameterizedTest
    @EnumSource(value = EmbeddingType.class, names = {"F32"})
    void everyReadAgreesWithTheModelUnderNarrowTieredCompaction(EmbeddingType type) {
        for (int seed = 200; seed < 200 + Integer.getInteger("audit.seeds", 6); seed++) {
            run(type, seed, 400, Options.builder()
                    .compactionPolicy(new dev.tala.compaction.TieredPolicy(
                            new dev.tala.compaction.TieredSettings(2, 3, 1.0, 3, 0.25)))
                    .targetSegmentBytes(4096));
        }
    }

    /** The model: id to live intent, ordered by id. */
    static final class Model {
        final TreeMap<IntentId, Intent> live = new TreeMap<>();
        /** The largest timestamp any put has written, live or not. */
        long everMax = -1;

        void put(Intent x) {
            live.put(x.id(), x);
            everMax = Math.max(everMax, x.timestampNs());
        }

        Model copy() {
            Model m = new Model();
            m.everMax = everMax;
            m.live.putAll(live);
            return m;
        }
    }

    private void run(EmbeddingType type, int seed, int steps, Options.Builder profile) {
        Path dir = tmp.resolve(type + "-" + seed);
        Options options = profile.dimension(DIM).embeddingType(type).memtableBytes(8 * 1024)
                .durability(Durability.none()).build();
        Random random = new Random(seed * 31L + type.ordinal());
        List<IntentId> pool = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            // Both halves of the unsigned id order: msb with the top bit set sorts last.
            pool.add(IntentId.of(random.nextLong(), random.nextLong()));
        }
        IntentId neverWritten = IntentId.of(random.nextLong(), random.nextLong());
        Model model = new Model();
        List<Snapshot> snapshots = new ArrayList<>();
        List<Model> snapshotModels = new ArrayList<>();
        TalaDB db = TalaDB.open(dir, options);
        try {
            for (int step = 0; step < steps; step++) {
                int kind = random.nextInt(100);
                TalaDB w = db;
                String context = "seed " + seed + " step " + step + " " + type;
                if (kind < 50) {
                    Intent x = intent(random, pool, neverWritten, type);
                    db.put(x);
                    model.put(stored(x, type));
                } else if (kind < 62) {
                    IntentId id = pick(random, pool);
                    db.delete(id);
                    model.live.remove(id);
                } else if (kind < 74) {
                    IntentId id = pick(random, pool);
                    Status status = Status.values()[random.nextInt(Status.values().length)];
                    Outcome outcome = random.nextBoolean() ? null : new Outcome(random.nextInt(3) == 0 ? Long.MAX_VALUE : random.nextInt(1000), random.nextInt(3) - 1);
                    if (model.live.containsKey(id)) {
                        db.attachOutcome(id, status, outcome);
                        model.put(model.live.get(id).withOutcome(status, outcome));
                    } else {
                        assertThrows(InvalidIntentException.class, () -> w.attachOutcome(id, status, outcome), context);
                    }
                } else if (kind < 82) {
                    Model next = model.copy();
                    WriteBatch batch = new WriteBatch();
                    boolean refused = false;
                    for (int n = 1 + random.nextInt(4); n > 0; n--) {
                        int op = random.nextInt(3);
                        if (op == 0) {
                            Intent x = intent(random, pool, neverWritten, type);
                            batch.put(x);
                            next.put(stored(x, type));
                        } else if (op == 1) {
                            IntentId id = pick(random, pool);
                            batch.delete(id);
                            next.live.remove(id);
                        } else {
                            IntentId id = pick(random, pool);
                            Status status = Status.values()[random.nextInt(Status.values().length)];
                            batch.attachOutcome(id, status, null);
                            if (next.live.containsKey(id)) {
                                next.put(next.live.get(id).withOutcome(status, null));
                            } else {
                                refused = true;
                            }
                        }
                    }
                    if (refused) {
                        assertThrows(InvalidIntentException.class, () -> w.write(batch), context);
                    } else {
                        db.write(batch);
                        model.live.clear();
                        model.live.putAll(next.live);
                        model.everMax = next.everMax;
                    }
                } else if (kind < 88) {
                    db.flush();
                } else if (kind < 91) {
                    db.compact();
                } else if (kind < 92) {
                    db.compactPending(p -> { });
                } else if (kind < 93) {
                    long a = STAMPS[random.nextInt(STAMPS.length)];
                    long b = STAMPS[random.nextInt(STAMPS.length)];
                    db.compactRange(Math.min(a, b), Math.max(a, b), p -> { });
                } else if (kind < 95 && snapshots.isEmpty()) {
                    db.close();
                    db = TalaDB.open(dir, options);
                } else if (kind < 97 && snapshots.size() < 2) {
                    snapshots.add(db.snapshot());
                    snapshotModels.add(model.copy());
                } else {
                    try (Snapshot s = db.snapshot()) {
                        checkAll(s, model, pool, neverWritten, random, type, context);
                    }
                }
            }
            for (int i = 0; i < snapshots.size(); i++) {
                try (Snapshot s = snapshots.get(i)) {
                    checkAll(s, snapshotModels.get(i), pool, neverWritten, random, type, "held snapshot " + i + " seed " + seed);
                }
            }
            snapshots.clear();
            try (Snapshot s = db.snapshot()) {
                checkAll(s, model, pool, neverWritten, random, type, "end seed " + seed);
            }
            db.compact();
            db.close();
            db = TalaDB.open(dir, options);
            try (Snapshot s = db.snapshot()) {
                checkAll(s, model, pool, neverWritten, random, type, "compacted and reopened seed " + seed);
            }
        } finally {
            for (Snapshot s : snapshots) {
                s.close();
            }
            db.close();
        }
    }

    private static IntentId pick(Random random, List<IntentId> pool) {
        return pool.get(random.nextInt(pool.size()));
    }

    private static Intent intent(Random random, List<IntentId> pool, IntentId neverWritten, EmbeddingType type) {
        IntentId id = pick(random, pool);
        Intent.Builder b = Intent.builder().id(id)
                .timestampNs(STAMPS[random.nextInt(STAMPS.length)])
                .confidence(new float[] {0, 0.25f, 0.5f, 1}[random.nextInt(4)])
                .status(Status.values()[random.nextInt(Status.values().length)])
                .command(COMMANDS[random.nextInt(COMMANDS.length)])
                .contextHash(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(3))
                .outcome(random.nextInt(3) == 0 ? new Outcome(random.nextBoolean() ? Long.MAX_VALUE : 0,
                        random.nextBoolean() ? Integer.MIN_VALUE : -1) : null)
                .embedding(VECTORS[random.nextInt(VECTORS.length)].clone());
        int edges = random.nextInt(4);
        for (int e = 0; e < edges; e++) {
            int t = random.nextInt(pool.size() + 2);
            IntentId target = t < pool.size() ? pool.get(t) : t == pool.size() ? id : neverWritten;
            b.addEdge(target, Relation.values()[random.nextInt(Relation.values().length)],
                    WEIGHTS[random.nextInt(WEIGHTS.length)]);
        }
        if (random.nextInt(6) == 0 && edges > 0) {
            // The same edge twice: each copy is an edge of its own.
            Intent partial = b.build();
            Edge first = partial.edges().get(0);
            b.addEdge(first.target(), first.relation(), first.weight());
        }
        return b.build();
    }

    /** What the database documents it stores: the type's nearest value of each component. */
    private static Intent stored(Intent x, EmbeddingType type) {
        if (type == EmbeddingType.F32) {
            return x;
        }
        return x.toBuilder().embedding(EmbeddingCodec.stored(type, x.embedding())).build();
    }

    private void checkAll(Snapshot s, Model given, List<IntentId> pool, IntentId neverWritten, Random random,
                          EmbeddingType type, String context) {
        Model model = given;
        if (coldType != null) {
            model = given.copy();
            for (Intent i : given.live.values()) {
                Intent read = s.get(i.id()).orElseThrow(() -> new AssertionError(context + " lost " + i.id()));
                float[] cold = EmbeddingCodec.stored(coldType, i.embedding());
                assertTrue(java.util.Arrays.equals(read.embedding(), i.embedding())
                        || java.util.Arrays.equals(read.embedding(), cold), context + " " + i.id() + " reads "
                        + java.util.Arrays.toString(read.embedding()) + ", neither as put nor its cold approximation");
                model.live.put(i.id(), i.toBuilder().embedding(read.embedding()).build());
            }
        }
        for (IntentId id : pool) {
            assertEquals(java.util.Optional.ofNullable(model.live.get(id)), s.get(id), context + " get " + id);
        }
        assertEquals(java.util.Optional.empty(), s.get(neverWritten), context);
        assertEquals(model.live.size(), s.countIntents(), context + " count");
        List<Intent> all = new ArrayList<>();
        s.forEachIntent(all::add);
        assertEquals(new ArrayList<>(model.live.values()), all, context + " forEachIntent in id order");
        OptionalLong newest = s.newestTimestamp();
        if (!model.live.isEmpty()) {
            long max = model.live.values().stream().mapToLong(Intent::timestampNs).max().orElseThrow();
            assertTrue(newest.isPresent() && newest.getAsLong() >= max, context + " newestTimestamp " + newest
                    + " below the live maximum " + max);
            if (max == model.everMax) {
                // No intent ever held a later timestamp, so nothing was deleted or moved back from it.
                assertEquals(OptionalLong.of(max), newest, context + " newestTimestamp exact");
            }
        }
        checkScans(s, model, random, context);
        checkGraph(s, model, pool, neverWritten, random, context);
        checkSearch(s, model, random, type, context);
    }

    private static void checkScans(Snapshot s, Model model, Random random, String context) {
        long[] bounds = {Long.MIN_VALUE, -1, 0, 1, 2, 3, 7, 8, 1_000_000, MAX_TS - 1, MAX_TS, Long.MAX_VALUE};
        for (int q = 0; q < 10; q++) {
            long a = bounds[random.nextInt(bounds.length)];
            long b = bounds[random.nextInt(bounds.length)];
            long from = Math.min(a, b);
            long to = Math.max(a, b);
            if (Math.max(to, 0) < Math.max(from, 0)) {
                continue;
            }
            int limit = new int[] {0, 1, 2, 3, 1000, Integer.MAX_VALUE}[random.nextInt(6)];
            List<Intent> expected = model.live.values().stream()
                    .filter(i -> i.timestampNs() >= from && i.timestampNs() < to)
                    .sorted(Comparator.comparingLong(Intent::timestampNs).thenComparing(Intent::id))
                    .limit(limit).toList();
            assertEquals(expected, s.scan(from, to, limit), context + " scan [" + from + ", " + to + ") limit " + limit);
            List<Intent> streamed = new ArrayList<>();
            int stopAfter = 1 + random.nextInt(4);
            long given = s.scan(from, to, i -> {
                streamed.add(i);
                return streamed.size() < stopAfter;
            });
            long inRange = model.live.values().stream().filter(i -> i.timestampNs() >= from && i.timestampNs() < to).count();
            assertEquals(Math.min(stopAfter, inRange), given, context + " scan consumer count");
            assertEquals(given, streamed.size(), context + " scan returns what it gave");
        }
    }

    private static void checkGraph(Snapshot s, Model model, List<IntentId> pool, IntentId neverWritten, Random random,
                                   String context) {
        List<IntentId> ids = new ArrayList<>(pool);
        ids.add(neverWritten);
        for (IntentId id : ids) {
            assertEquals(GraphModel.expectedFrom(model.live, id, 1), s.edgesFrom(id), context + " edgesFrom " + id);
            // Documented order: by source id, each source's edges in its own order.
            List<Hop> to = new ArrayList<>();
            if (model.live.containsKey(id)) {
                for (Intent source : model.live.values()) {
                    for (Edge e : source.edges()) {
                        if (e.target().equals(id)) {
                            to.add(new Hop(source.id(), id, e.relation(), e.weight(), 1));
                        }
                    }
                }
            }
            assertEquals(to, s.edgesTo(id), context + " edgesTo " + id);
        }
        for (int q = 0; q < 6; q++) {
            IntentId start = ids.get(random.nextInt(ids.size()));
            int depth = random.nextInt(5);
            Direction direction = Direction.values()[random.nextInt(3)];
            Set<Relation> relations = random.nextBoolean() ? Set.of()
                    : EnumSet.of(Relation.values()[random.nextInt(5)], Relation.values()[random.nextInt(5)]);
            List<Hop> got = s.traverse(start, depth, relations, direction);
            List<String> want = GraphModel.expectedTraversal(model.live, start, depth, relations, direction).stream()
                    .map(Hop::toString).sorted().toList();
            assertEquals(want, got.stream().map(Hop::toString).sorted().toList(),
                    context + " traverse " + start + " depth " + depth + " " + direction + " " + relations);
            for (int i = 1; i < got.size(); i++) {
                assertTrue(got.get(i - 1).depth() <= got.get(i).depth(), context + " breadth-first order " + got);
            }
        }
    }

    private void checkSearch(Snapshot s, Model model, Random random, EmbeddingType type, String context) {
        for (int q = 0; q < 8; q++) {
            float[] vector = VECTORS[random.nextInt(VECTORS.length)].clone();
            int k = new int[] {1, 2, 3, 5, 100, Integer.MAX_VALUE}[random.nextInt(6)];
            boolean zero = java.util.Arrays.equals(vector, new float[DIM]);
            Metric metric = zero || random.nextBoolean() ? Metric.DOT : Metric.COSINE;
            SearchFilter filter = SearchFilter.ALL;
            if (random.nextBoolean()) {
                filter = filter.withStatuses(EnumSet.of(Status.values()[random.nextInt(4)], Status.values()[random.nextInt(4)]));
            }
            if (random.nextBoolean()) {
                filter = filter.withMinConfidence(new float[] {0, 0.25f, 0.5f, 1}[random.nextInt(4)]);
            }
            if (random.nextBoolean()) {
                long a = STAMPS[random.nextInt(STAMPS.length)] + random.nextInt(2);
                long b = STAMPS[random.nextInt(STAMPS.length)] + random.nextInt(2);
                filter = filter.withTimeRange(Math.min(a, b), Math.max(a, b));
            }
            SearchFilter f = filter;
            List<Intent> passing = model.live.values().stream()
                    .filter(i -> f.statuses().contains(i.status()) && i.confidence() >= f.minConfidence()
                            && i.timestampNs() >= f.fromTimestamp() && i.timestampNs() < f.toTimestamp())
                    .toList();
            // Exact model order: score descending, equal scores by id.
            List<Intent> expected = passing.stream()
                    .sorted(Comparator.comparingDouble((Intent i) -> -BruteForceScores.score(metric, vector, i)).thenComparing(Intent::id))
                    .toList();
            List<SearchHit> hits = s.search(vector, k, metric, filter);
            String what = context + " search " + metric + " k " + k + " " + filter + " query " + java.util.Arrays.toString(vector);
            assertEquals(Math.min(k, passing.size()), hits.size(), what + " hit count");
            double tolerance = 1e-5;
            double kth = hits.isEmpty() ? 0 : BruteForceScores.score(metric, vector, expected.get(hits.size() - 1));
            Set<IntentId> seen = new HashSet<>();
            for (int i = 0; i < hits.size(); i++) {
                SearchHit h = hits.get(i);
                assertTrue(seen.add(h.intent().id()), what + " an id twice");
                assertEquals(model.live.get(h.intent().id()), h.intent(), what + " hit " + i + " is the live version");
                assertTrue(passing.contains(h.intent()), what + " hit " + i + " passes the filter");
                double sc = BruteForceScores.score(metric, vector, h.intent());
                assertEquals(sc, h.score(), tolerance * Math.max(1, Math.abs(sc)), what + " hit " + i + " score");
                assertTrue(sc >= kth - tolerance * Math.max(1, Math.abs(kth)), what + " hit " + i + " belongs in the top k");
                if (i > 0) {
                    SearchHit prev = hits.get(i - 1);
                    assertTrue(prev.score() >= h.score(), what + " best first");
                    if (prev.score() == h.score()) {
                        assertTrue(prev.intent().id().compareTo(h.intent().id()) < 0, what + " equal scores by id at " + i);
                    }
                }
            }
            for (int i = 1; i < hits.size(); i++) {
                double before = BruteForceScores.score(metric, vector, hits.get(i - 1).intent());
                double after = BruteForceScores.score(metric, vector, hits.get(i).intent());
                assertTrue(before >= after - tolerance * Math.max(1, Math.abs(after)), what + " model order at " + i);
            }
            if (type == EmbeddingType.F32 && coldType == null) {
                // Identical f32 vectors must score the same wherever they are stored, so at the
                // cut an equal vector with a smaller id wins. (A cold segment scores with its own
                // type's kernel, whose last bits may differ, as for a lossy database.)
                for (SearchHit h : hits) {
                    for (Intent other : passing) {
                        if (java.util.Arrays.equals(other.embedding(), h.intent().embedding())
                                && other.id().compareTo(h.intent().id()) < 0) {
                            assertTrue(hits.stream().anyMatch(x -> x.intent().id().equals(other.id())),
                                    what + " " + other.id() + " has the same vector as hit " + h.intent().id()
                                            + " and a smaller id, but is not a hit: " + hits);
                        }
                    }
                }
            }
        }
    }
}
