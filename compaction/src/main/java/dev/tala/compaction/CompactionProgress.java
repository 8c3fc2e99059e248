package dev.tala.compaction;

/**
 * How far a compaction has got. Input bytes are apportioned by rows: an input whose rows are
 * half read counts half its file size, which is exact at the start and at the end and close
 * in between, without tracking which bytes each row touched.
 */
public record CompactionProgress(long rowsProcessed, long rowsTotal, long bytesProcessed, long bytesTotal,
                                 int outputsWritten, long bytesWritten) {
    /** The fraction of input rows processed, 1 for an empty input. */
    public double fraction() {
        return rowsTotal == 0 ? 1.0 : (double) rowsProcessed / rowsTotal;
    }

    /** Receives progress from the thread running the job; an exception it throws aborts the job. */
    @FunctionalInterface
    public interface Listener {
        Listener NONE = p -> {
        };

        void onProgress(CompactionProgress progress);
    }
}
