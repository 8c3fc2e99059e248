package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Search scores against double-precision brute force at dimensions that leave a tail after the
 * kernels' vector lanes, in every stored type, from memtables, level-0 and compacted segments.
 * Each stored type's scores are computed from the floats it reads back, so only summation order
 * separates them from the model: 1e-4 relative (dimension up to 515, components of unit size).
 */
class OddDimensionSearchTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} dim {1}")
    @CsvSource({"F32, 37", "F16, 37", "BF16, 37", "INT8, 37", "F32, 515", "F16, 515", "BF16, 515", "INT8, 515",
        "F32, 1", "INT8, 1", "F16, 17", "BF16, 65"})
    void scoresMatchBruteForce(EmbeddingType type, int dim) {
        Options o = Options.builder().dimension(dim).embeddingType(type).durability(Durability.none())
                .memtableBytes(64 * 1024).build();
        Random random = new Random(dim * 7L + type.ordinal());
        TreeMap<IntentId, Intent> model = new TreeMap<>();
        try (TalaDB db = TalaDB.open(dir.resolve(type + "-" + dim), o)) {
            for (int i = 0; i < 400; i++) {
                float[] e = new float[dim];
                for (int j = 0; j < dim; j++) {
                    e[j] = (float) (random.nextGaussian() * (random.nextInt(10) == 0 ? 100 : 1));
                }
                IntentId id = IntentId.of(random.nextInt(300), 1);
                db.put(Intent.builder().id(id).timestampNs(random.nextInt(1000))
                        .status(Status.values()[random.nextInt(4)]).embedding(e).build());
                model.put(id, db.get(id).orElseThrow());
                if (i % 97 == 0) {
                    db.flush();
                }
                if (i == 250) {
                    db.compact();
                }
            }
            for (int q = 0; q < 30; q++) {
                float[] v = new float[dim];
                for (int j = 0; j < dim; j++) {
                    v[j] = (float) random.nextGaussian();
                }
                Metric m = q % 2 == 0 ? Metric.COSINE : Metric.DOT;
                int k = 1 + random.nextInt(30);
                SearchFilter f = q % 3 == 0 ? SearchFilter.ALL.withTimeRange(100, 700) : SearchFilter.ALL;
                List<Intent> want = model.values().stream().filter(f::accepts)
                        .sorted(Comparator.comparingDouble((Intent i) -> -BruteForceScores.score(m, v, i))).toList();
                List<SearchHit> hits;
                try (Snapshot s = db.snapshot()) {
                    hits = s.search(v, k, m, f);
                }
                assertEquals(Math.min(k, want.size()), hits.size());
                double kth = BruteForceScores.score(m, v, want.get(hits.size() - 1));
                for (SearchHit h : hits) {
                    assertEquals(model.get(h.intent().id()), h.intent());
                    double sc = BruteForceScores.score(m, v, h.intent());
                    double tol = 1e-4 * Math.max(1, Math.abs(sc));
                    assertEquals(sc, h.score(), tol, type + " dim " + dim + " " + m + " score of " + h.intent().id());
                    assertTrue(sc >= kth - tol, type + " dim " + dim + " " + m + " " + h.intent().id() + " is in the top " + k);
                }
            }
        }
    }
}
