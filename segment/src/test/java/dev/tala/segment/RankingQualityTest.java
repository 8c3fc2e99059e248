package dev.tala.segment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How much lossy embedding storage disturbs similarity rankings: Spearman rank correlation of
 * cosine similarities against the f32 ranking, on a clustered synthetic corpus, with f32 queries
 * and stored-then-decoded corpus vectors.
 */
class RankingQualityTest {
    private static final int DIM = 384;
    private static final int CORPUS = 2000;
    private static final int CLUSTERS = 20;
    private static final int QUERIES = 20;
    /** bf16 keeps 8 bits of mantissa to f16's 11: measured 0.999997 here, against f16's 0.9999998. */
    private static final double BF16_MIN_MEAN = 0.998;

    @TempDir
    Path dir;

    private static float[] normalized(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * inv;
        }
        return out;
    }

    private static float[] near(float[] center, Random r, double spread) {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) (center[i] + r.nextGaussian() * spread / Math.sqrt(DIM));
        }
        return normalized(v);
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    private static double[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(values[x], values[y]));
        double[] rank = new double[values.length];
        for (int i = 0; i < order.length; ) {
            int j = i;
            while (j + 1 < order.length && values[order[j + 1]] == values[order[i]]) {
                j++;
            }
            double average = (i + j) / 2.0;
            for (int k = i; k <= j; k++) {
                rank[order[k]] = average;
            }
            i = j + 1;
        }
        return rank;
    }

    /** Pearson correlation of the ranks, which handles ties. */
    static double spearman(double[] a, double[] b) {
        double[] ra = ranks(a);
        double[] rb = ranks(b);
        double ma = Arrays.stream(ra).average().orElse(0);
        double mb = Arrays.stream(rb).average().orElse(0);
        double cov = 0;
        double va = 0;
        double vb = 0;
        for (int i = 0; i < ra.length; i++) {
            cov += (ra[i] - ma) * (rb[i] - mb);
            va += (ra[i] - ma) * (ra[i] - ma);
            vb += (rb[i] - mb) * (rb[i] - mb);
        }
        return cov / Math.sqrt(va * vb);
    }

    @Test
    void clusteredCorpus() throws IOException {
        measure("clustered", 0.9);
    }

    /** No structure at all: similarities crowd around 0, the hardest case for a ranking. */
    @Test
    void uniformCorpus() throws IOException {
        measure("uniform", 1e4);
    }

    private void measure(String name, double spread) throws IOException {
        Random r = new Random(384);
        float[][] centers = new float[CLUSTERS][];
        for (int c = 0; c < CLUSTERS; c++) {
            centers[c] = normalized(SegmentFixtures.randomVector(r, DIM, 1f));
        }
        List<IntentVersion> versions = new ArrayList<>();
        for (int i = 0; i < CORPUS; i++) {
            float[] v = near(centers[r.nextInt(CLUSTERS)], r, spread);
            versions.add(IntentVersion.put(i, Intent.builder().id(IntentId.of(1, i)).command("q").embedding(v).build()));
        }
        float[][] queries = new float[QUERIES][];
        for (int q = 0; q < QUERIES; q++) {
            queries[q] = near(centers[q % CLUSTERS], r, spread);
        }
        // The baseline is the vectors as given, never written: f32 storage must give it back exactly.
        double[][] baseline = new double[QUERIES][CORPUS];
        for (int row = 0; row < CORPUS; row++) {
            float[] v = versions.get(row).intent().embedding();
            for (int q = 0; q < QUERIES; q++) {
                baseline[q][row] = cosine(queries[q], v);
            }
        }
        StringBuilder report =  new StringBuilder(name + " corpus, Spearman vs f32 over " + CORPUS + " x " + DIM + ", " + QUERIES + " queries:");
        double[] means = new double[EmbeddingType.values().length];
        for (EmbeddingType type : EmbeddingType.values()) {
            double[][] sims = similarities(type, versions, queries);
            double sum = 0;
            double min = 1;
            for (int q = 0; q < QUERIES; q++) {
                double rho = spearman(baseline[q], sims[q]);
                sum += rho;
                min = Math.min(min, rho);
            }
            means[type.ordinal()] = sum / QUERIES;
            report.append(String.format(" %s mean %.8f min %.8f;", type.label(), sum / QUERIES, min));
        }
        System.out.println(report);
        assertTrue(means[EmbeddingType.F32.ordinal()] == 1.0, report.toString());
        assertTrue(means[EmbeddingType.INT8.ordinal()] >= 0.98, report.toString());
        assertTrue(means[EmbeddingType.F16.ordinal()] >= 0.999, report.toString());
        assertTrue(means[EmbeddingType.BF16.ordinal()] >= BF16_MIN_MEAN, report.toString());
    }

    private double[][] similarities(EmbeddingType type, List<IntentVersion> versions, float[][] queries) throws IOException {
        Path file = dir.resolve(type.label() + "-" + System.nanoTime() + ".tbf");
        SegmentFixtures.write(file, SegmentWriteOptions.of(1, 0, DIM, type), versions);
        double[][] out = new double[queries.length][CORPUS];
        try (SegmentReader reader = SegmentFixtures.open(file)) {
            for (int row = 0; row < CORPUS; row++) {
                float[] v = reader.embeddingAsFloats(row);
                for (int q = 0; q < queries.length; q++) {
                    out[q][row] = cosine(queries[q], v);
                }
            }
        }
        return out;
    }
}
