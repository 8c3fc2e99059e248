package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.Relation;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Intents at the edge limit: every edge of a source to one target, and a dense graph among a
 * few intents, read from the memtable, a segment and a compacted one, edges in the documented
 * order (outgoing in the intent's order, incoming by source id, each source's in its order).
 */
class DenseEdgesReadTest {
    @TempDir
    Path dir;

    @Test
    void edgesAtTheLimitReadInTheirOrderFromEverySource() {
        Options o = Options.builder().dimension(2).durability(Durability.none()).build();
        Random random = new Random(3);
        List<IntentId> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(IntentId.of(random.nextLong(), i));
        }
        TreeMap<IntentId, Intent> model = new TreeMap<>();
        try (TalaDB db = TalaDB.open(dir, o)) {
            for (int round = 0; round < 3; round++) {
                for (IntentId id : ids) {
                    Intent.Builder b = Intent.builder().id(id).timestampNs(round).embedding(new float[] {1, round});
                    int n = random.nextInt(4) == 0 ? IntentLimits.MAX_EDGES : random.nextInt(40);
                    for (int e = 0; e < n; e++) {
                        b.addEdge(ids.get(random.nextInt(ids.size())), Relation.values()[random.nextInt(5)],
                                random.nextInt(7) - 3);
                    }
                    Intent x = b.build();
                    db.put(x);
                    model.put(id, x);
                }
                // A deleted target drops its incoming edges; a source put again unchanged keeps them.
                IntentId victim = ids.get(random.nextInt(ids.size()));
                db.delete(victim);
                model.remove(victim);
                db.put(model.firstEntry().getValue());
                check(db, model, ids, "round " + round + " memtable");
                db.flush();
                check(db, model, ids, "round " + round + " flushed");
            }
            db.compact();
            check(db, model, ids, "compacted");
        }
    }

    private static void check(TalaDB db, TreeMap<IntentId, Intent> model, List<IntentId> ids, String context) {
        for (IntentId id : ids) {
            List<Hop> from = new ArrayList<>();
            List<Hop> to = new ArrayList<>();
            if (model.containsKey(id)) {
                for (Edge e : model.get(id).edges()) {
                    if (model.containsKey(e.target())) {
                        from.add(new Hop(id, e.target(), e.relation(), e.weight(), 1));
                    }
                }
                for (Intent source : model.values()) {
                    for (Edge e : source.edges()) {
                        if (e.target().equals(id)) {
                            to.add(new Hop(source.id(), id, e.relation(), e.weight(), 1));
                        }
                    }
                }
            }
            assertEquals(from, db.edgesFrom(id), context + " edgesFrom " + id);
            assertEquals(to, db.edgesTo(id), context + " edgesTo " + id);
            for (Direction d : ids.indexOf(id) < 3 ? Direction.values() : new Direction[0]) {
                List<String> want = GraphModel.expectedTraversal(model, id, 3, Set.of(Relation.CAUSAL, Relation.RETRY), d)
                        .stream().map(Hop::toString).sorted().toList();
                assertEquals(want, db.traverse(id, 3, Set.of(Relation.CAUSAL, Relation.RETRY), d).stream()
                        .map(Hop::toString).sorted().toList(), context + " traverse " + d + " " + id);
            }
        }
    }
}
