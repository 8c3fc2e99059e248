package dev.tala.compaction;

import dev.tala.segment.StoredRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a sorted stream of stored rows into outputs of about a target size. Buffers the rows of the
 * current output only, which is what bounds a compaction's memory: when the next row would take
 * the output past the target, the buffered rows are handed to the sink and the buffer starts
 * over. A single row larger than the target still gets an output of its own.
 */
final class OutputRoller {
    /** Receives the rows of one output, sorted by id; it owns the list from then on. */
    @FunctionalInterface
    interface OutputSink {
        void write(List<StoredRow> rows) throws IOException;
    }

    private final RowSizeEstimator estimator;
    private final long targetBytes;
    private final OutputSink sink;
    private List<StoredRow> buffer = new ArrayList<>();
    private long bufferedBytes;
    private long maxBufferedRows;
    private long maxBufferedBytes;

    OutputRoller(RowSizeEstimator estimator, long targetBytes, OutputSink sink) {
        if (targetBytes <= 0) {
            throw new IllegalArgumentException("target output size must be positive, got " + targetBytes);
        }
        this.estimator = estimator;
        this.targetBytes = targetBytes;
        this.sink = sink;
        this.bufferedBytes = estimator.segmentOverhead();
    }

    void add(StoredRow row) throws IOException {
        long size = estimator.estimate(row);
        if (!buffer.isEmpty() && bufferedBytes + size > targetBytes) {
            roll();
        }
        buffer.add(row);
        bufferedBytes += size;
        maxBufferedRows = Math.max(maxBufferedRows, buffer.size());
        maxBufferedBytes = Math.max(maxBufferedBytes, bufferedBytes);
    }

    /** Writes what is buffered, if anything. */
    void finish() throws IOException {
        if (!buffer.isEmpty()) {
            roll();
        }
    }

    private void roll() throws IOException {
        List<StoredRow> rows = buffer;
        buffer = new ArrayList<>(rows.size());
        bufferedBytes = estimator.segmentOverhead();
        sink.write(rows);
    }

    /** The most rows buffered at once: the memory bound actually reached. */
    long maxBufferedRows() {
        return maxBufferedRows;
    }

    /** The largest estimated size of a buffered output, overhead included. */
    long maxBufferedBytes() {
        return maxBufferedBytes;
    }
}
