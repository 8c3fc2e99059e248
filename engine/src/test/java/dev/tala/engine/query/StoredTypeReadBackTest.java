package dev.tala.engine.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database that stores embeddings as f16, bf16 or int8 reads back the same floats wherever
 * an intent lives: in the memtable, replayed from the WAL, in a flushed segment, in a
 * compacted one. Before, the memtable kept the floats as given and a segment their stored
 * approximation, so a flush, which no caller asks for, changed what {@code get} returned and
 * moved every search score by the approximation's error, not just by rounding.
 */
class StoredTypeReadBackTest {
    private static final int DIM = 24;

    @TempDir
    Path dir;

    private static float[] awkward(Random random) {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) random.nextGaussian() / 3f;
        }
        v[0] = 0.1f;
        v[1] = 1f / 3f;
        v[2] = 70_000f; // past f16's largest value, which saturates
        v[3] = 1e-8f;   // below f16's smallest
        v[4] = -2.7182817f;
        return v;
    }

    @Test
    void everyStoredTypeReadsBackTheSameFloatsBeforeAndAfterAFlush() throws Exception {
        Random random = new Random(7);
        for (EmbeddingType type : EmbeddingType.values()) {
            Path db = dir.resolve(type.label());
            Options options = Options.builder().dimension(DIM).durability(Durability.none()).embeddingType(type)
                    .backgroundCompaction(false).build();
            List<Intent> written = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                written.add(Intent.builder().id(IntentId.newV7()).timestampNs(i + 1).command("c")
                        .embedding(awkward(random)).build());
            }
            float[] query = awkward(random);
            List<float[]> fromMemtable;
            List<List<SearchHit>> hitsFromMemtable;
            try (TalaDB open = TalaDB.open(db, options)) {
                open.put(written.get(0));
                WriteBatch batch = new WriteBatch();
                written.subList(1, written.size()).forEach(batch::put);
                open.write(batch);
                fromMemtable = embeddings(open, written);
                hitsFromMemtable = searches(open, query);
            }
            // closed without a flush: the intents come back from the WAL
            try (TalaDB open = TalaDB.open(db, options)) {
                assertSame(type, "replayed from the WAL", fromMemtable, embeddings(open, written));
                open.flush();
                assertSame(type, "flushed", fromMemtable, embeddings(open, written));
                assertSameHits(type, hitsFromMemtable, searches(open, query));
                open.compact(dev.tala.compaction.CompactionProgress.Listener.NONE);
            }
            try (TalaDB open = TalaDB.open(db, options)) {
                assertSame(type, "compacted and reopened", fromMemtable, embeddings(open, written));
                assertSameHits(type, hitsFromMemtable, searches(open, query));
            }
            if (type == EmbeddingType.F32) {
                assertSame(type, "as written", written.stream().map(Intent::embedding).toList(), fromMemtable);
            }
        }
    }

    private static List<float[]> embeddings(TalaDB db, List<Intent> written) {
        return written.stream().map(x -> db.get(x.id()).orElseThrow().embedding()).toList();
    }

    private static List<List<SearchHit>> searches(TalaDB db, float[] query) {
        List<List<SearchHit>> hits = new ArrayList<>();
        for (Metric metric : Metric.values()) {
            try (var snapshot = db.snapshot()) {
                hits.add(snapshot.search(query, 10, metric, SearchFilter.ALL));
            }
        }
        return hits;
    }

    private static void assertSame(EmbeddingType type, String where, List<float[]> expected, List<float[]> actual) {
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), type.label() + ", " + where + ", intent " + i);
        }
    }

    private static void assertSameHits(EmbeddingType type, List<List<SearchHit>> expected, List<List<SearchHit>> actual) {
        for (int m = 0; m < expected.size(); m++) {
            List<SearchHit> e = expected.get(m);
            List<SearchHit> a = actual.get(m);
            assertEquals(e.size(), a.size(), type.label());
            for (int i = 0; i < e.size(); i++) {
                assertEquals(e.get(i).intent().id(), a.get(i).intent().id(), type.label() + " " + Metric.values()[m]);
                // The same values, summed by another kernel in a segment: equal up to rounding.
                float score = e.get(i).score();
                assertEquals(score, a.get(i).score(), 1e-5f * Math.max(1f, Math.abs(score)),
                        type.label() + " " + Metric.values()[m] + " hit " + i);
            }
        }
    }
}
