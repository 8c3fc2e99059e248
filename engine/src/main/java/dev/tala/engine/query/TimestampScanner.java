package dev.tala.engine.query;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Finds the rows of a timestamp column inside [from, to) with the Vector API: a whole vector of
 * timestamps is compared at once and only the lanes that match are visited. Timestamps are
 * below 2^63, so signed comparison is exact.
 */
public final class TimestampScanner {
    private static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TimestampScanner() {
    }

    /** Receives matching rows in ascending order. */
    public interface RowSink {
        void accept(int row);
    }

    /** Calls {@code sink} for each row of {@code column} (rows x 8 little-endian bytes) with {@code from <= ts < to}. */
    public static void scan(MemorySegment column, int rows, long from, long to, RowSink sink) {
        int lanes = SPECIES.length();
        int row = 0;
        int vectorEnd = rows - rows % lanes;
        for (; row < vectorEnd; row += lanes) {
            LongVector ts = LongVector.fromMemorySegment(SPECIES, column, (long) row * 8, ByteOrder.LITTLE_ENDIAN);
            VectorMask<Long> hit = ts.compare(VectorOperators.GE, from).and(ts.compare(VectorOperators.LT, to));
            if (hit.anyTrue()) {
                long bits = hit.toLong();
                while (bits != 0) {
                    sink.accept(row + Long.numberOfTrailingZeros(bits));
                    bits &= bits - 1;
                }
            }
        }
        for (; row < rows; row++) {
            long ts = column.get(LE, (long) row * 8);
            if (ts >= from && ts < to) {
                sink.accept(row);
            }
        }
    }

    /** How many timestamps fall in [from, to): the kernel the benchmark times. */
    public static int count(MemorySegment column, int rows, long from, long to) {
        int lanes = SPECIES.length();
        int row = 0;
        int n = 0;
        int vectorEnd = rows - rows % lanes;
        for (; row < vectorEnd; row += lanes) {
            LongVector ts = LongVector.fromMemorySegment(SPECIES, column, (long) row * 8, ByteOrder.LITTLE_ENDIAN);
            n += ts.compare(VectorOperators.GE, from).and(ts.compare(VectorOperators.LT, to)).trueCount();
        }
        for (; row < rows; row++) {
            long ts = column.get(LE, (long) row * 8);
            if (ts >= from && ts < to) {
                n++;
            }
        }
        return n;
    }
}
