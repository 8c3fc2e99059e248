package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.LeveledPolicy;
import dev.tala.compaction.LeveledSettings;
import dev.tala.compaction.TieredPolicy;
import dev.tala.compaction.TieredSettings;
import dev.tala.core.io.FileTrees;
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
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The engine against a model of what it stores, from the LSM audit: a small id pool (many
 * updates and deletes of the same ids, outcomes, batches), a few timestamps (ties, the largest
 * writable), moves on and off, leveled and tiered policies, cold and lossy embedding types,
 * flush, compact, compactRange, compactPending and reopening with other options, with snapshots
 * held across all of it. get, count, forEachIntent, scans, edges, traversals and filtered search
 * are compared with the model at every check. 40 tries here; the audit ran 800 without a failure.
 */
class LsmModelPropertyTest {
    static final int DIM = 4;
    static final long[] STAMPS = {0, 1, 2, 3, 100, 1000, IntentLimits.MAX_TIMESTAMP_NS - 1, IntentLimits.MAX_TIMESTAMP_NS};

    static Options options(int config) {
        Options.Builder b = Options.builder().dimension(DIM).memtableBytes(4096).durability(Durability.none())
                .backgroundCompaction(false);
        return switch (config) {
            case 0 -> b.targetSegmentBytes(4096).build();
            case 1 -> b.targetSegmentBytes(4096).compactionPolicy(new TieredPolicy(new TieredSettings(2, 8, 4.0, 6, 0.25))).build();
            case 2 -> b.targetSegmentBytes(4096).compactionPolicy(new LeveledPolicy(new LeveledSettings(2, 8192, 2, 4))).build();
            case 3 -> b.targetSegmentBytes(64 * 1024).compactionPolicy(new LeveledPolicy(new LeveledSettings(2, 8192, 2, 3))).build();
            case 4 -> b.targetSegmentBytes(4096).compactionMoves(false).compactionPolicy(new TieredPolicy(new TieredSettings(2, 3, 100.0, 3, 0.25))).build();
            case 6 -> b.targetSegmentBytes(4096).coldEmbeddingType(dev.tala.segment.EmbeddingType.INT8, 1)
                    .compactionPolicy(new TieredPolicy(new TieredSettings(2, 8, 4.0, 6, 0.25))).build();
            case 7 -> b.targetSegmentBytes(4096).embeddingType(dev.tala.segment.EmbeddingType.F16)
                    .coldEmbeddingType(dev.tala.segment.EmbeddingType.INT8, 2)
                    .compactionPolicy(new LeveledPolicy(new LeveledSettings(2, 8192, 2, 4))).build();
            case 8 -> b.targetSegmentBytes(4096).embeddingType(dev.tala.segment.EmbeddingType.BF16).build();
            default -> b.targetSegmentBytes(4096).backgroundCompaction(true)
                    .compactionPolicy(new TieredPolicy(new TieredSettings(2, 8, 4.0, 6, 0.25))).build();
        };
    }

    final class World {
        final Random r;
        final List<IntentId> pool = new ArrayList<>();
        final boolean ascending;
        long nextHi = 1;

        World(long seed, boolean ascending) {
            this.r = new Random(seed);
            this.ascending = ascending;
            for (int i = 0; i < 24; i++) {
                pool.add(IntentId.of(r.nextLong(), r.nextLong()));
            }
        }

        IntentId id() {
            if (ascending && r.nextInt(3) > 0) {
                IntentId id = IntentId.of(nextHi++, 7);
                pool.add(id);
                return id;
            }
            return pool.get(r.nextInt(pool.size()));
        }

        Intent intent(IntentId id) {
            float[] v = new float[DIM];
            for (int i = 0; i < DIM; i++) {
                v[i] = (float) r.nextGaussian();
            }
            List<Edge> edges = new ArrayList<>();
            int n = r.nextInt(4);
            for (int i = 0; i < n; i++) {
                edges.add(new Edge(pool.get(r.nextInt(pool.size())), Relation.values()[r.nextInt(5)], r.nextFloat()));
            }
            return Intent.builder().id(id).timestampNs(STAMPS[r.nextInt(STAMPS.length)])
                    .confidence(r.nextInt(4) / 3f).status(Status.values()[r.nextInt(4)])
                    .command("c" + r.nextInt(3)).embedding(v).edges(edges)
                    .outcome(r.nextBoolean() ? null : new Outcome(r.nextInt(1000), r.nextInt(3))).build();
        }
    }

    @Property(tries = 40)
    void modelAgrees(@ForAll long seed, @ForAll @IntRange(min = 0, max = 8) int config,
                     @ForAll @IntRange(min = 50, max = 600) int steps, @ForAll boolean ascending) throws Exception {
        run(seed, config, steps, ascending);
    }

    boolean approx;

    Intent n(Intent i) {
        return i == null || !approx ? i : i.toBuilder().embedding(new float[DIM]).build();
    }

    List<Intent> n(List<Intent> l) {
        return l.stream().map(this::n).toList();
    }

    void run(long seed, int config, int steps, boolean ascending) throws Exception {
        approx = config >= 6;
        Path dir = Files.createTempDirectory("audit");
        Options options = options(config);
        World w = new World(seed, ascending);
        Random r = w.r;
        Map<IntentId, Intent> model = new HashMap<>();
        List<Snapshot> snaps = new ArrayList<>();
        List<Map<IntentId, Intent>> snapModels = new ArrayList<>();
        TalaDB db = TalaDB.open(dir, options);
        StringBuilder log = new StringBuilder();
        try {
            for (int step = 0; step < steps; step++) {
                int k = r.nextInt(100);
                if (k < 45) {
                    Intent x = w.intent(w.id());
                    db.put(x);
                    model.put(x.id(), x);
                    log.append("put ").append(x.id()).append(" ts=").append(x.timestampNs()).append('\n');
                } else if (k < 62) {
                    IntentId id = w.id();
                    db.delete(id);
                    model.remove(id);
                    log.append("del ").append(id).append('\n');
                } else if (k < 72) {
                    IntentId id = w.id();
                    if (model.containsKey(id)) {
                        Status s = Status.values()[r.nextInt(4)];
                        Outcome o = r.nextBoolean() ? null : new Outcome(r.nextInt(100), 1);
                        db.attachOutcome(id, s, o);
                        model.put(id, model.get(id).withOutcome(s, o));
                        log.append("outcome ").append(id).append(' ').append(s).append('\n');
                    }
                } else if (k < 76) {
                    WriteBatch batch = new WriteBatch();
                    int n = 1 + r.nextInt(4);
                    Map<IntentId, Intent> tmp = new HashMap<>(model);
                    for (int i = 0; i < n; i++) {
                        IntentId id = w.id();
                        int kind = r.nextInt(3);
                        if (kind == 0) {
                            Intent x = w.intent(id);
                            batch.put(x);
                            tmp.put(id, x);
                        } else if (kind == 1) {
                            batch.delete(id);
                            tmp.remove(id);
                        } else if (tmp.containsKey(id)) {
                            batch.attachOutcome(id, Status.SUCCESS, null);
                            tmp.put(id, tmp.get(id).withOutcome(Status.SUCCESS, null));
                        }
                    }
                    if (batch.size() > 0) {
                        db.write(batch);
                        model.clear();
                        model.putAll(tmp);
                        log.append("batch\n");
                    }
                } else if (k < 84) {
                    db.flush();
                    log.append("flush\n");
                } else if (k < 87) {
                    db.compact();
                    log.append("compact\n");
                } else if (k < 92) {
                    long a = STAMPS[r.nextInt(STAMPS.length)] + r.nextInt(3) - 1;
                    long b = STAMPS[r.nextInt(STAMPS.length)] + r.nextInt(3);
                    long from = Math.min(a, b);
                    long to = Math.max(a, b);
                    if (from < to) {
                        db.compactRange(from, to, p -> { });
                        log.append("compactRange ").append(from).append(' ').append(to).append('\n');
                    }
                } else if (k < 96) {
                    db.compactPending(p -> { });
                    log.append("compactPending\n");
                } else if (k < 98) {
                    if (snaps.size() < 3) {
                        snaps.add(db.snapshot());
                        snapModels.add(new HashMap<>(model));
                        log.append("snapshot\n");
                    }
                } else {
                    db.close();
                    if (config <= 6 && r.nextBoolean()) {
                        int c2 = r.nextInt(9);
                        Options o2 = c2 <= 6 ? options(c2) : Options.builder().dimension(DIM).memtableBytes(4096 + r.nextInt(20000))
                                .durability(Durability.none()).backgroundCompaction(false).targetSegmentBytes(4096)
                                .manifestRewriteBytes(1).walRecycleFiles(2)
                                .compactionPolicy(c2 == 7 ? new LeveledPolicy(new LeveledSettings(1, 4096, 2, 1))
                                        : new TieredPolicy(new TieredSettings(2, 2, 1.0, 1, 0.25))).build();
                        approx |= c2 == 6;
                        db = TalaDB.open(dir, o2);
                        log.append("reopen with config ").append(c2).append('\n');
                    } else {
                        db = TalaDB.open(dir, options);
                        log.append("reopen\n");
                    }
                }
                if (r.nextInt(40) == 0) {
                    check(db, model, w, "step " + step + "\n" + tail(log));
                }
            }
            DbStats st = db.stats();
            System.out.println("AUDIT config=" + config + " compactions=" + st.compactions() + " moves=" + st.compactionMoves()
                    + " segments=" + st.segments() + " live=" + model.size());
            check(db, model, w, "end\n" + tail(log));
            for (int i = 0; i < snaps.size(); i++) {
                try (Snapshot s = snaps.get(i)) {
                    checkSnapshot(s, snapModels.get(i), w, "snapshot " + i + "\n" + tail(log));
                }
            }
            snaps.clear();
            db.compact();
            check(db, model, w, "after final compact");
            db.close();
            db = TalaDB.open(dir, options);
            check(db, model, w, "after final reopen");
        } finally {
            for (Snapshot s : snaps) {
                s.close();
            }
            db.close();
            FileTrees.delete(dir);
        }
    }

    static String tail(StringBuilder log) {
        String s = log.toString();
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }

    void check(TalaDB db, Map<IntentId, Intent> model, World w, String ctx) {
        try (Snapshot s = db.snapshot()) {
            checkSnapshot(s, model, w, ctx);
        }
    }

    void checkSnapshot(Snapshot s, Map<IntentId, Intent> model, World w, String ctx) {
        for (IntentId id : w.pool) {
            assertEquals(java.util.Optional.ofNullable(n(model.get(id))), s.get(id).map(this::n), "get " + id + " " + ctx);
        }
        assertEquals(model.size(), s.countIntents(), "count " + ctx);
        List<Intent> all = new ArrayList<>();
        s.forEachIntent(all::add);
        assertEquals(n(new TreeMap<>(model).values().stream().toList()), n(all), "forEach " + ctx);
        // scans
        List<long[]> ranges = new ArrayList<>();
        ranges.add(new long[] {0, Long.MAX_VALUE});
        ranges.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        ranges.add(new long[] {-5, 1});
        ranges.add(new long[] {IntentLimits.MAX_TIMESTAMP_NS, Long.MAX_VALUE});
        for (long a : STAMPS) {
            for (long b : STAMPS) {
                if (b < a) {
                    // Arguments in the wrong order are refused, not answered with nothing.
                    assertThrows(IllegalArgumentException.class, () -> s.scan(a, b, 1), "scan [" + a + "," + b + ") " + ctx);
                } else {
                    ranges.add(new long[] {a, b});
                }
            }
        }
        for (long[] rg : ranges) {
            for (int limit : new int[] {1, 3, Integer.MAX_VALUE}) {
                long f = rg[0];
                long t = rg[1];
                List<Intent> expected = model.values().stream()
                        .filter(i -> i.timestampNs() >= f && i.timestampNs() < t)
                        .sorted(Comparator.comparingLong(Intent::timestampNs).thenComparing(Intent::id))
                        .limit(limit).toList();
                assertEquals(n(expected), n(s.scan(f, t, limit)), "scan [" + f + "," + t + ") limit " + limit + " " + ctx);
            }
        }
        // edges
        for (IntentId id : w.pool) {
            assertEquals(sortedHops(GraphModel.expectedFrom(model, id, 1)), sortedHops(s.edgesFrom(id)), "edgesFrom " + id + " " + ctx);
            assertEquals(sortedHops(GraphModel.expectedTo(model, id, 1)), sortedHops(s.edgesTo(id)), "edgesTo " + id + " " + ctx);
        }
        for (int q = 0; q < 6; q++) {
            IntentId id = w.pool.get(w.r.nextInt(w.pool.size()));
            int depth = 1 + w.r.nextInt(3);
            dev.tala.engine.query.Direction direction = dev.tala.engine.query.Direction.values()[w.r.nextInt(3)];
            Set<Relation> relations = w.r.nextBoolean() ? Set.of() : EnumSet.of(Relation.values()[w.r.nextInt(5)]);
            assertEquals(sortedHops(GraphModel.expectedTraversal(model, id, depth, relations, direction)),
                    sortedHops(s.traverse(id, depth, relations, direction)), "traverse " + id + " " + ctx);
        }
        long maxTs = model.values().stream().mapToLong(Intent::timestampNs).max().orElse(-1);
        if (maxTs >= 0) {
            assertTrue(s.newestTimestamp().isPresent() && s.newestTimestamp().getAsLong() >= maxTs, "newestTimestamp " + ctx);
        }
        // search with filters: ids returned must be exactly those of the best live matches
        Random r = w.r;
        for (int q = 0; q < 6; q++) {
            float[] v = new float[DIM];
            for (int i = 0; i < DIM; i++) {
                v[i] = (float) r.nextGaussian();
            }
            Set<Status> st = EnumSet.of(Status.values()[r.nextInt(4)]);
            float minConf = r.nextInt(4) / 3f;
            long from = STAMPS[r.nextInt(STAMPS.length)];
            long to = Math.max(from, STAMPS[r.nextInt(STAMPS.length)]);
            SearchFilter filter = SearchFilter.ALL;
            if (r.nextBoolean()) {
                filter = filter.withStatuses(st);
            } else {
                st = EnumSet.allOf(Status.class);
            }
            if (r.nextBoolean()) {
                filter = filter.withMinConfidence(minConf);
            } else {
                minConf = 0;
            }
            if (r.nextBoolean()) {
                filter = filter.withTimeRange(from, to);
            } else {
                from = 0;
                to = Long.MAX_VALUE;
            }
            Set<Status> fst = st;
            float fmc = minConf;
            long ff = from;
            long ft = to;
            List<Intent> passing = model.values().stream()
                    .filter(i -> fst.contains(i.status()) && i.confidence() >= fmc && i.timestampNs() >= ff
                            && i.timestampNs() < ft).toList();
            int kk = 1 + r.nextInt(model.size() + 2);
            List<SearchHit> hits = s.search(v, kk, Metric.DOT, filter);
            assertEquals(Math.min(kk, passing.size()), hits.size(), "search hit count " + filter + " " + ctx);
            for (SearchHit h : hits) {
                Intent live = model.get(h.intent().id());
                assertEquals(n(live), n(h.intent()), "search hit is live version " + filter + " " + ctx);
                assertTrue(passing.contains(live), "search hit passes filter " + filter + " " + ctx);
            }
            // The ranking, scored here in double over the vectors as stored (a lossy type's
            // decoded ones, as get returns them): the hits are the best k, best first.
            double[] best = passing.stream().mapToDouble(i -> dot(v, s.get(i.id()).orElseThrow().embedding()))
                    .boxed().sorted(java.util.Comparator.reverseOrder()).mapToDouble(Double::doubleValue)
                    .limit(kk).toArray();
            for (int i = 0; i < hits.size(); i++) {
                assertEquals(best[i], hits.get(i).score(), 1e-3 * (1 + Math.abs(best[i])),
                        "search rank " + i + " " + filter + " " + ctx);
            }
        }
    }






    static List<String> sortedHops(List<Hop> hops) {
        return hops.stream().map(Hop::toString).sorted().toList();
    }

    private static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }
}
