package dev.tala.segment.vector;

import dev.tala.segment.format.TbfFormat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * A query vector prepared once for a whole search: its own copy of the f32 values (so a caller
 * cannot change it under a running scan, and kernels can load it with the fastest array loads),
 * its squared norm for cosine, and the sum of its components, which the int8 kernel needs for the
 * zero_point term. Immutable.
 */
public final class Query {
    private final float[] values;
    private final double squaredNorm;
    private final double sum;

    private Query(float[] values) {
        int dim = values.length;
        if (dim < TbfFormat.MIN_DIMENSION || dim > TbfFormat.MAX_DIMENSION) {
            throw new IllegalArgumentException("query dimension " + dim + " is outside " + TbfFormat.MIN_DIMENSION
                    + ".." + TbfFormat.MAX_DIMENSION);
        }
        double sq = 0;
        double s = 0;
        for (int i = 0; i < dim; i++) {
            float v = values[i];
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException("query component " + i + " is " + v + "; it must be finite");
            }
            sq += (double) v * v;
            s += v;
        }
        this.values = values;
        this.squaredNorm = sq;
        this.sum = s;
    }

    /** A query over a copy of {@code values}. */
    public static Query of(float[] values) {
        return new Query(values.clone());
    }

    /**
     * A query over {@code dimension} floats in native byte order at the start of {@code vector},
     * e.g. {@code MemorySegment.ofArray(float[])} or an intent's embedding view. They are copied.
     */
    public static Query of(MemorySegment vector, int dimension) {
        Objects.requireNonNull(vector, "vector");
        if (dimension < 0 || (long) dimension * Float.BYTES > vector.byteSize()) {
            throw new IllegalArgumentException("a " + vector.byteSize() + "-byte segment does not hold " + dimension
                    + " floats");
        }
        float[] copy = new float[dimension];
        MemorySegment.copy(vector, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, copy, 0, dimension);
        return new Query(copy);
    }

    public int dimension() {
        return values.length;
    }

    /** A copy of the values. */
    public float[] toArray() {
        return values.clone();
    }

    /** The sum of the squared components, in double precision. */
    public double squaredNorm() {
        return squaredNorm;
    }

    /** The sum of the components, in double precision. */
    public double sum() {
        return sum;
    }

    /** The values themselves, for the kernels: never modified, never handed out. */
    float[] values() {
        return values;
    }
}
