package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's embedding example, kept compiling and true. */
class ReadmeExampleTest {
    @TempDir
    Path dir;

    @Test
    void theReadmeExampleRunsAsWritten() {
        float[] embedding = new float[384];
        embedding[0] = 1;
        // --- README example begins
        try (TalaDB db = TalaDB.open(dir.resolve("intents"),
                Options.builder().dimension(384).durability(Durability.sync()).build())) {
            IntentId deploy = IntentId.newV7();
            db.put(Intent.builder()
                    .id(deploy)
                    .timestampNs(System.currentTimeMillis() * 1_000_000L)
                    .command("kubectl rollout restart deploy/api")
                    .confidence(0.92f)
                    .status(Status.PENDING)
                    .embedding(embedding)
                    .build());
            IntentId retry = IntentId.newV7();
            db.put(Intent.builder()
                    .id(retry)
                    .timestampNs(System.currentTimeMillis() * 1_000_000L)
                    .command("kubectl rollout restart deploy/api --timeout=5m")
                    .embedding(embedding)
                    .addEdge(deploy, Relation.RETRY, 1.0f)
                    .build());
            db.attachOutcome(retry, Status.SUCCESS, new Outcome(42_000_000L, 0));

            Intent stored = db.get(retry).orElseThrow();
            List<SearchHit> similar = db.search(embedding, 10, SearchFilter.ALL);
            List<Hop> causes = db.traverse(retry, 3, Set.of(Relation.RETRY), Direction.OUTGOING);
            // --- README example ends
            assertEquals(Status.SUCCESS, stored.status());
            assertEquals(2, similar.size());
            assertEquals(deploy, causes.getFirst().to());
        }
    }
}
