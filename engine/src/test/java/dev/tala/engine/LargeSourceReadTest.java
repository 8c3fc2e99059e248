package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sources larger than the pieces reads work in: segments of more than one 4096-slot scoring
 * chunk with tombstones between live rows, memtables past the arrival index's first 1024
 * entries with late timestamps, and a target with more incoming sources than the memtable's
 * small array holds.
 */
class LargeSourceReadTest {
    @TempDir
    Path dir;

    @Test
    void largeSegmentsAndMemtablesAnswerAsTheModel() {
        Options o = Options.builder().dimension(3).durability(Durability.none()).memtableBytes(64L << 20).build();
        Random random = new Random(7);
        TreeMap<IntentId, Intent> model = new TreeMap<>();
        List<IntentId> ids = new ArrayList<>();
        IntentId hub = IntentId.of(0, 42);
        try (TalaDB db = TalaDB.open(dir, o)) {
            db.put(Intent.builder().id(hub).timestampNs(1).embedding(new float[] {1, 1, 1}).build());
            model.put(hub, db.get(hub).orElseThrow());
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 6000; i++) {
                    int op = random.nextInt(10);
                    if (op < 7 || ids.isEmpty()) {
                        IntentId id = ids.isEmpty() || random.nextInt(4) > 0 ? IntentId.of(random.nextLong(), random.nextLong())
                                : ids.get(random.nextInt(ids.size()));
                        Intent.Builder b = Intent.builder().id(id)
                                .timestampNs(random.nextInt(5) == 0 ? random.nextInt(50) : 1000 + i + round * 10_000)
                                .status(Status.values()[random.nextInt(4)])
                                .embedding(new float[] {random.nextInt(5) - 2, random.nextInt(5) - 2, random.nextInt(3)});
                        if (random.nextInt(8) == 0) {
                            b.addEdge(hub, Relation.values()[random.nextInt(5)], random.nextInt(3));
                            if (random.nextBoolean()) {
                                b.addEdge(hub, Relation.CAUSAL, 9);
                            }
                        }
                        Intent x = b.build();
                        db.put(x);
                        model.put(id, x);
                        ids.add(id);
                    } else if (op < 9) {
                        IntentId id = ids.get(random.nextInt(ids.size()));
                        db.delete(id);
                        model.remove(id);
                    } else {
                        IntentId id = ids.get(random.nextInt(ids.size()));
                        if (model.containsKey(id)) {
                            db.attachOutcome(id, Status.SUCCESS, null);
                            model.put(id, model.get(id).withOutcome(Status.SUCCESS, null));
                        }
                    }
                }
                check(db, model, hub, random, "round " + round + " memtable");
                db.flush();
                check(db, model, hub, random, "round " + round + " flushed");
            }
            db.compact();
            check(db, model, hub, random, "compacted");
        }
    }

    private static void check(TalaDB db, TreeMap<IntentId, Intent> model, IntentId hub, Random random, String context) {
        try (Snapshot s = db.snapshot()) {
            assertEquals(model.size(), s.countIntents(), context);
            List<Hop> to = new ArrayList<>();
            for (Intent source : model.values()) {
                for (Edge e : source.edges()) {
                    if (e.target().equals(hub)) {
                        to.add(new Hop(source.id(), hub, e.relation(), e.weight(), 1));
                    }
                }
            }
            assertEquals(to, s.edgesTo(hub), context + " edgesTo");
            for (long[] r : new long[][] {{0, 50}, {10, 1500}, {1000, 7000}, {3000, 20_000}, {0, Long.MAX_VALUE}}) {
                List<Intent> want = model.values().stream().filter(i -> i.timestampNs() >= r[0] && i.timestampNs() < r[1])
                        .sorted(Comparator.comparingLong(Intent::timestampNs).thenComparing(Intent::id)).toList();
                assertEquals(want, s.scan(r[0], r[1], Integer.MAX_VALUE), context + " scan " + r[0] + " " + r[1]);
            }
            for (int q = 0; q < 10; q++) {
                float[] v = {random.nextInt(5) - 2, random.nextInt(5) - 2, 1 + random.nextInt(2)};
                int k = 1 + random.nextInt(40);
                SearchFilter f = random.nextBoolean() ? SearchFilter.ALL : SearchFilter.ALL.withTimeRange(1000, 9000);
                Metric m = random.nextBoolean() ? Metric.DOT : Metric.COSINE;
                // Small integer vectors: DOT is exact in f32 and many scores tie, so order is by id.
                List<Intent> want = model.values().stream().filter(f::accepts)
                        .sorted(Comparator.comparingDouble((Intent i) -> -BruteForceScores.score(m, v, i))
                                .thenComparing(Intent::id)).limit(k).toList();
                List<SearchHit> hits = s.search(v, k, m, f);
                if (m == Metric.DOT) {
                    assertEquals(want.stream().map(Intent::id).toList(), hits.stream().map(h -> h.intent().id()).toList(),
                            context + " search " + m + " k " + k + " " + f);
                } else {
                    assertEquals(want.size(), hits.size(), context);
                    for (int i = 0; i < hits.size(); i++) {
                        assertEquals(BruteForceScores.score(m, v, want.get(i)), hits.get(i).score(), 1e-5, context);
                    }
                }
            }
        }
    }
}
