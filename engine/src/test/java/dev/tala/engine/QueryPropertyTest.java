package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.FileTrees;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Scan, edges, traversal and search (cosine and dot product, with filters) compared with brute
 * force over a model of the live intents, after random writes with flushes, full and time-range
 * compactions and reopenings in between (so answers merge memtables and several segments, with
 * shadowed and deleted versions); on a snapshot held across later writes, flushes and
 * compactions; and again after a final compaction and reopening.
 */
class QueryPropertyTest {
    static final int DIM = 4;

    /**
     * Found by the property below: a stored vector whose only non-zero component is
     * Float.MIN_VALUE. It scored 0 under cosine by the rule of the time; it scores by its
     * direction now.
     */
    @net.jqwik.api.Example
    void aVectorOfOnlySubnormalComponentsScoresByItsDirection() throws Exception {
        queriesAgreeWithBruteForce(2, 182);
    }

    @Property(tries = 25)
    void queriesAgreeWithBruteForce(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int writes) throws Exception {
        Path dir = Files.createTempDirectory("queries");
        Options options = Options.builder().dimension(DIM).memtableBytes(16 * 1024).durability(Durability.none()).build();
        RandomIntents gen = new RandomIntents(seed, DIM);
        Random random = gen.random();
        Map<IntentId, Intent> model = new LinkedHashMap<>();
        List<IntentId> ids = new ArrayList<>();
        // A snapshot taken halfway and queried at the end, after the writes, flushes and
        // compactions that followed it: it must still answer as of the moment it was taken.
        Snapshot early = null;
        Map<IntentId, Intent> earlyModel = null;
        TalaDB db = TalaDB.open(dir, options);
        try {
            for (int i = 0; i < writes; i++) {
                if (i == writes / 2) {
                    early = db.snapshot();
                    earlyModel = new LinkedHashMap<>(model);
                }
                int kind = ids.isEmpty() ? 0 : random.nextInt(10);
                if (kind < 6) {
                    Intent x = ids.isEmpty() || random.nextInt(4) > 0 ? gen.next() : gen.next(ids.get(random.nextInt(ids.size())));
                    db.put(x);
                    model.put(x.id(), x);
                    ids.add(x.id());
                } else if (kind < 8) {
                    IntentId id = ids.get(random.nextInt(ids.size()));
                    db.delete(id);
                    model.remove(id);
                } else {
                    IntentId id = ids.get(random.nextInt(ids.size()));
                    if (model.containsKey(id)) {
                        db.attachOutcome(id, Status.FAILURE, null);
                        model.put(id, model.get(id).withOutcome(Status.FAILURE, null));
                    }
                }
                if (random.nextInt(60) == 0) {
                    db.flush();
                }
                if (random.nextInt(120) == 0) {
                    db.compact(p -> { });
                } else if (random.nextInt(200) == 0) {
                    long a = random.nextLong() & Long.MAX_VALUE;
                    long b = random.nextLong() & Long.MAX_VALUE;
                    db.compactRange(Math.min(a, b), Math.max(a, b), p -> { });
                }
                if (early == null && random.nextInt(150) == 0) {
                    db.close();
                    db = TalaDB.open(dir, options);
                }
            }
            if (early != null) {
                try (Snapshot s = early) {
                    checkAll(s, earlyModel, ids, random, gen);
                }
            }
            try (Snapshot s = db.snapshot()) {
                checkAll(s, model, ids, random, gen);
            }
            db.compact(p -> { });
            db.close();
            db = TalaDB.open(dir, options);
            try (Snapshot s = db.snapshot()) {
                checkAll(s, model, ids, random, gen);
            }
        } finally {
            db.close();
            FileTrees.delete(dir);
        }
    }

    private static void checkAll(Snapshot s, Map<IntentId, Intent> model, List<IntentId> ids, Random random,
                                 RandomIntents gen) {
        checkScans(s, model, random);
        checkGraph(s, model, ids, random);
        checkSearch(s, model, gen);
    }

    private static void checkScans(Snapshot s, Map<IntentId, Intent> model, Random random) {
        List<Long> stamps = model.values().stream().map(Intent::timestampNs).sorted().toList();
        for (int q = 0; q < 12; q++) {
            long from;
            long to;
            if (stamps.isEmpty() || q <= 1) {
                // No timestamp is negative, so a negative bound must select what 0 would.
                from = q == 0 ? 0 : Long.MIN_VALUE;
                to = Long.MAX_VALUE;
            } else {
                long a = stamps.get(random.nextInt(stamps.size())) + random.nextInt(3) - 1;
                long b = stamps.get(random.nextInt(stamps.size())) + random.nextInt(3) - 1;
                from = Math.min(a, b) - (q == 2 ? 1L << 40 : 0);
                to = Math.max(a, b);
            }
            int limit = random.nextBoolean() ? Integer.MAX_VALUE : 1 + random.nextInt(5);
            long f = from;
            long t = to;
            List<Intent> expected = model.values().stream()
                    .filter(i -> i.timestampNs() >= f && i.timestampNs() < t)
                    .sorted(Comparator.comparingLong(Intent::timestampNs).thenComparing(Intent::id))
                    .limit(limit)
                    .toList();
            assertEquals(expected, s.scan(from, to, limit), "scan [" + from + ", " + to + ") limit " + limit);
        }
    }

    private static void checkGraph(Snapshot s, Map<IntentId, Intent> model, List<IntentId> ids, Random random) {
        for (int q = 0; q < 15 && !ids.isEmpty(); q++) {
            IntentId id = ids.get(random.nextInt(ids.size()));
            assertEquals(GraphModel.expectedFrom(model, id, 1), s.edgesFrom(id), "edgesFrom " + id);
            assertEquals(sorted(GraphModel.expectedTo(model, id, 1)), sorted(s.edgesTo(id)), "edgesTo " + id);
            int depth = 1 + random.nextInt(3);
            Direction direction = Direction.values()[random.nextInt(3)];
            Set<Relation> relations = random.nextBoolean() ? Set.of()
                    : EnumSet.of(Relation.values()[random.nextInt(5)], Relation.values()[random.nextInt(5)]);
            assertEquals(sorted(GraphModel.expectedTraversal(model, id, depth, relations, direction)),
                    sorted(s.traverse(id, depth, relations, direction)),
                    "traverse " + id + " depth " + depth + " " + direction + " " + relations);
        }
    }

    private static void checkSearch(Snapshot s, Map<IntentId, Intent> model, RandomIntents gen) {
        Random random = gen.random();
        for (int q = 0; q < 10; q++) {
            float[] vector = gen.embedding();
            int k = 1 + random.nextInt(8);
            Metric metric = random.nextBoolean() ? Metric.COSINE : Metric.DOT;
            SearchFilter filter = SearchFilter.ALL;
            Set<Status> statuses = EnumSet.allOf(Status.class);
            float minConfidence = 0;
            long from = 0;
            long to = Long.MAX_VALUE;
            if (random.nextBoolean()) {
                statuses = EnumSet.of(Status.values()[random.nextInt(4)], Status.values()[random.nextInt(4)]);
                filter = filter.withStatuses(statuses);
            }
            if (random.nextBoolean()) {
                minConfidence = random.nextFloat();
                filter = filter.withMinConfidence(minConfidence);
            }
            if (random.nextBoolean()) {
                long a = random.nextLong() & Long.MAX_VALUE;
                long b = random.nextLong() & Long.MAX_VALUE;
                from = Math.min(a, b);
                to = Math.max(a, b);
                filter = filter.withTimeRange(from, to);
            }
            // The model's filter is written out here rather than borrowed from SearchFilter.
            Set<Status> only = statuses;
            float min = minConfidence;
            long f = from;
            long t = to;
            List<Intent> passing = model.values().stream()
                    .filter(i -> only.contains(i.status()) && i.confidence() >= min
                            && i.timestampNs() >= f && i.timestampNs() < t)
                    .toList();
            List<Double> expected = passing.stream().map(i -> BruteForceScores.score(metric, vector, i))
                    .sorted(Comparator.reverseOrder()).limit(k).toList();
            List<SearchHit> hits = s.search(vector, k, metric, filter);
            assertEquals(expected.size(), hits.size(), "hit count for k " + k + " " + metric);
            for (int i = 0; i < hits.size(); i++) {
                SearchHit h = hits.get(i);
                Intent live = model.get(h.intent().id());
                assertEquals(live, h.intent(), "a hit is the live version of its id");
                assertTrue(passing.contains(live), "a hit passes the filter");
                assertEquals(BruteForceScores.score(metric, vector, live), h.score(), 1e-4, "a hit's score is its " + metric);
                assertEquals(expected.get(i), h.score(), 1e-4, "rank " + i + " has the expected score");
            }
        }
    }

    private static List<String> sorted(List<Hop> hops) {
        return hops.stream().map(Hop::toString).sorted().toList();
    }
}
