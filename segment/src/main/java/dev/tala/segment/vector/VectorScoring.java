package dev.tala.segment.vector;

import dev.tala.segment.EmbeddingType;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Exact similarity search over a contiguous range of slots of an embeddings region (for a TBF
 * segment: {@code SegmentReader.embeddingRegion()}, {@code stride()}, {@code dtype()},
 * {@code dimension()}). Vector {@code s} starts at byte {@code s * stride} of the region. Every
 * argument is checked before the first vector is read, so the loops themselves carry no checks
 * beyond the memory segment's own.
 */
public final class VectorScoring {
    /**
     * Slots scored per batch in {@link #topK}: large enough that the kernel loop runs
     * uninterrupted, small enough (4 KiB of scores) to stay in L1 while they are offered.
     */
    static final int BATCH = 1024;

    private VectorScoring() {
    }

    /**
     * Writes the score of slot {@code s} to {@code out[s - fromSlot]} for every slot in
     * {@code [fromSlot, toSlot)}.
     *
     * @throws IllegalArgumentException if the dimension, stride or output do not fit
     * @throws IndexOutOfBoundsException if the range is not inside the region
     */
    public static void score(MemorySegment region, long stride, int fromSlot, int toSlot, EmbeddingType type,
            int dimension, Query query, Metric metric, float[] out) {
        check(region, stride, fromSlot, toSlot, type, dimension, query, metric);
        if (out.length < toSlot - fromSlot) {
            throw new IllegalArgumentException("output holds " + out.length + " scores, the range has "
                    + (toSlot - fromSlot));
        }
        scoreChecked(region, stride, fromSlot, toSlot, type, query, metric, out);
    }

    /**
     * Offers every slot in {@code [fromSlot, toSlot)} to {@code top} with key {@code keyBase + slot}
     * (a base lets one heap collect the results of several segments under distinct keys). A NaN
     * score, which only non-finite stored values (never written by SegmentWriter) can give with
     * {@link Metric#DOT}, ranks nowhere and is skipped.
     */
    public static void topK(MemorySegment region, long stride, int fromSlot, int toSlot, EmbeddingType type,
            int dimension, Query query, Metric metric, long keyBase, TopK top) {
        check(region, stride, fromSlot, toSlot, type, dimension, query, metric);
        Objects.requireNonNull(top, "top");
        float[] batch = new float[Math.min(BATCH, toSlot - fromSlot)];
        for (int start = fromSlot; start < toSlot; start += BATCH) {
            int end = Math.min(toSlot, start + BATCH);
            scoreChecked(region, stride, start, end, type, query, metric, batch);
            float threshold = top.threshold();
            for (int s = start; s < end; s++) {
                float score = batch[s - start];
                // Most slots lose to the current k-th best: one comparison, no call.
                if (score >= threshold && top.offer(score, keyBase + s)) {
                    threshold = top.threshold();
                }
            }
        }
    }

    /** One loop per dtype, so that each calls its kernel directly and the JIT can inline it. */
    private static void scoreChecked(MemorySegment region, long stride, int fromSlot, int toSlot, EmbeddingType type,
            Query query, Metric metric, float[] out) {
        switch (type) {
            case F32 -> {
                for (int s = fromSlot; s < toSlot; s++) {
                    out[s - fromSlot] = metric.score(F32Kernel.dotAndNorm(query, region, s * stride), query,
                            EmbeddingType.F32, region, s * stride);
                }
            }
            case F16 -> {
                for (int s = fromSlot; s < toSlot; s++) {
                    out[s - fromSlot] = metric.score(F16Kernel.dotAndNorm(query, region, s * stride), query,
                            EmbeddingType.F16, region, s * stride);
                }
            }
            case BF16 -> {
                for (int s = fromSlot; s < toSlot; s++) {
                    out[s - fromSlot] = metric.score(Bf16Kernel.dotAndNorm(query, region, s * stride), query,
                            EmbeddingType.BF16, region, s * stride);
                }
            }
            case INT8 -> {
                for (int s = fromSlot; s < toSlot; s++) {
                    out[s - fromSlot] = metric.score(Int8Kernel.dotAndNorm(query, region, s * stride), query,
                            EmbeddingType.INT8, region, s * stride);
                }
            }
        }
    }

    private static void check(MemorySegment region, long stride, int fromSlot, int toSlot, EmbeddingType type,
            int dimension, Query query, Metric metric) {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(metric, "metric");
        if (dimension != query.dimension()) {
            throw new IllegalArgumentException("the query has " + query.dimension() + " components, the stored vectors "
                    + dimension);
        }
        long vectorBytes = type.vectorBytes(dimension);
        if (stride < vectorBytes) {
            throw new IllegalArgumentException("stride " + stride + " is shorter than one " + type.label() + " vector of "
                    + dimension + " components (" + vectorBytes + " bytes)");
        }
        if (fromSlot < 0 || fromSlot > toSlot) {
            throw new IndexOutOfBoundsException("slot range [" + fromSlot + ", " + toSlot + ") is not a range");
        }
        if (toSlot > fromSlot && (toSlot - 1L) * stride + vectorBytes > region.byteSize()) {
            throw new IndexOutOfBoundsException("slot " + (toSlot - 1) + " ends beyond the " + region.byteSize()
                    + "-byte region");
        }
    }
}
