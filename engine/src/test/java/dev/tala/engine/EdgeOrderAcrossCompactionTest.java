package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of edge-case usage: edgesTo and an incoming traversal listed a target's sources
 * memtable by memtable and segment by segment, each in id order, so the same data answered in
 * another order once a compaction merged them. They are now in source id order throughout.
 */
class EdgeOrderAcrossCompactionTest {
    @TempDir
    Path dir;

    private static Intent node(IntentId id, IntentId target, Relation relation) {
        Intent.Builder b = Intent.builder().id(id).timestampNs(1).command("n").embedding(new float[] {1, 0});
        return target == null ? b.build() : b.addEdge(target, relation, 1f).build();
    }

    @Test
    void incomingEdgesAnswerTheSameListBeforeAndAfterACompaction() {
        Options options = Options.builder().dimension(2).durability(Durability.none()).backgroundCompaction(false)
                .build();
        IntentId target = IntentId.of(0, 100);
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(node(target, null, null));
            db.put(node(IntentId.of(0, 2), target, Relation.CAUSAL));
            db.flush();
            db.put(node(IntentId.of(0, 1), target, Relation.RETRY));
            db.flush();
            db.put(node(IntentId.of(0, 3), target, Relation.BRANCH));
            List<Hop> edgesBefore = db.edgesTo(target);
            List<Hop> traversalBefore = db.traverse(target, 2, Set.of(), Direction.INCOMING);
            db.flush();
            db.compact();
            assertEquals(edgesBefore, db.edgesTo(target), "edgesTo before and after flush + compact");
            assertEquals(traversalBefore, db.traverse(target, 2, Set.of(), Direction.INCOMING),
                    "incoming traversal before and after flush + compact");
        }
    }
}
