package dev.tala.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Embeddings at the ends of the f32 range, which the API accepts (every value finite): they must
 * stay readable in every stored type, and every one must be scored by an exact search.
 */
class ExtremeEmbeddingsTest {
    private static final int DIM = 64;
    private Path dir;

    @BeforeEach
    void createDirectory() throws IOException {
        dir = Files.createTempDirectory("extreme-embeddings");
    }

    @AfterEach
    void deleteDirectory() throws IOException {
        FileTrees.delete(dir);
    }

    private static Intent intent(long timestamp, float[] embedding) {
        return Intent.builder().id(IntentId.newV7()).timestampNs(timestamp).command("c").embedding(embedding).build();
    }

    /**
     * An int8 segment holding a component of Float.MAX_VALUE decoded it as infinity (its scale
     * rounded up): every read of the intent failed, verify reported the segment and the database
     * no longer opened.
     */
    @Test
    void theLargestFloatStaysReadableInEveryStoredType() {
        float[] embedding = new float[DIM];
        embedding[0] = Float.MAX_VALUE;
        embedding[1] = -Float.MAX_VALUE;
        embedding[2] = 1f;
        for (EmbeddingType type : EmbeddingType.values()) {
            Path db = dir.resolve(type.label());
            Options options = Options.builder().dimension(DIM).durability(Durability.none()).embeddingType(type).build();
            Intent stored = intent(1, embedding);
            try (TalaDB open = TalaDB.open(db, options)) {
                open.put(stored);
                open.flush();
                assertFinite(type, open.get(stored.id()).orElseThrow());
                assertEquals(1, open.search(embedding, 5, SearchFilter.ALL).size(), type.label());
            }
            VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(db));
            assertTrue(report.isClean(), type.label() + ": " + report.problems());
            try (TalaDB reopened = TalaDB.open(db, options)) {
                assertFinite(type, reopened.get(stored.id()).orElseThrow());
            }
        }
    }

    private static void assertFinite(EmbeddingType type, Intent intent) {
        for (int i = 0; i < DIM; i++) {
            assertTrue(Float.isFinite(intent.embedding(i)), type.label() + " value " + i + " is " + intent.embedding(i));
        }
    }

    /**
     * A vector of alternating +-1e30 against a query of 1e30 has a dot product of 0, but f32
     * lanes overflowed to +infinity and -infinity, whose NaN dropped it from the DOT results:
     * a search for more hits than stored returned one of two, before and after a flush.
     */
    @Test
    void aDotProductThatOverflowsItsLanesIsStillScored() {
        float[] query = new float[DIM];
        Arrays.fill(query, 1e30f);
        float[] alternating = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            alternating[i] = i % 2 == 0 ? 1e30f : -1e30f;
        }
        float[] small = new float[DIM];
        Arrays.fill(small, 1e-3f);
        Options options = Options.builder().dimension(DIM).durability(Durability.none()).build();
        try (TalaDB db = TalaDB.open(dir.resolve("db"), options)) {
            db.put(intent(1, alternating));
            db.put(intent(2, small));
            for (String where : List.of("memtable", "segment")) {
                try (Snapshot s = db.snapshot()) {
                    List<SearchHit> hits = s.search(query, 10, Metric.DOT, SearchFilter.ALL);
                    assertEquals(2, hits.size(), where + ": " + hits);
                    for (SearchHit hit : hits) {
                        assertTrue(Float.isFinite(hit.score()), where + ": " + hits);
                    }
                }
                db.flush();
            }
        }
    }

    /**
     * A zero query has no cosine similarity to anything: every score was 0 and the k hits were
     * whichever came first. Refused, as Lucene refuses it; the dot product still answers.
     */
    @Test
    void aZeroQueryIsRefusedByCosineAndScoredByDotProduct() {
        float[] zero = new float[DIM];
        float[] some = new float[DIM];
        Arrays.fill(some, 0.5f);
        Options options = Options.builder().dimension(DIM).durability(Durability.none()).build();
        try (TalaDB db = TalaDB.open(dir.resolve("db"), options)) {
            db.put(intent(1, some));
            InvalidIntentException e = assertThrows(InvalidIntentException.class,
                    () -> db.search(zero, 5, SearchFilter.ALL));
            assertTrue(e.getMessage().contains("all zeros"), e.getMessage());
            try (Snapshot s = db.snapshot()) {
                List<SearchHit> hits = s.search(zero, 5, Metric.DOT, SearchFilter.ALL);
                assertEquals(1, hits.size());
                assertEquals(0f, hits.getFirst().score());
            }
        }
    }

    /**
     * An embedding whose squared norm f32 cannot hold (components of 1e20, or of 1e-25) scored 0
     * against every query, its own direction included: stored, but never found (from an audit).
     * It is found first by its direction, from the memtable and after a flush, in f32 and bf16.
     */
    @Test
    void anEmbeddingOfAnySizeIsFoundByItsDirection() {
        float[] direction = new float[DIM];
        float[] other = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            direction[i] = i % 3;
            other[i] = i % 3 == 0 ? 1 : 0;
        }
        for (EmbeddingType type : List.of(EmbeddingType.F32, EmbeddingType.BF16)) {
            for (float size : new float[] {1e20f, 1e-25f}) {
                float[] stored = direction.clone();
                for (int i = 0; i < DIM; i++) {
                    stored[i] *= size;
                }
                Options options = Options.builder().dimension(DIM).embeddingType(type).durability(Durability.none())
                        .backgroundCompaction(false).build();
                Path db = dir.resolve(type.label() + "-" + size);
                try (TalaDB open = TalaDB.open(db, options)) {
                    open.put(intent(1, other));
                    Intent found = intent(2, stored);
                    open.put(found);
                    IntentId id = found.id();
                    for (int round = 0; round < 2; round++) {
                        for (float[] query : List.of(direction, stored)) {
                            List<SearchHit> hits = open.search(query, 1, SearchFilter.ALL);
                            String what = type.label() + " at size " + size + (round == 0 ? ", memtable" : ", segment");
                            assertEquals(id, hits.getFirst().intent().id(), what);
                            assertEquals(1f, hits.getFirst().score(), 1e-3f, what);
                        }
                        open.flush();
                    }
                }
            }
        }
    }
}
