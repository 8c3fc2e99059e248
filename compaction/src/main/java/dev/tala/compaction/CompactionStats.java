package dev.tala.compaction;

/**
 * What one compaction did. Row counts satisfy
 * {@code inputRows == outputRows + versionsShadowed + tombstonesDropped}.
 *
 * @param inputBytes        file sizes of the inputs (a merge reads every input byte once)
 * @param outputBytes       bytes written: the file sizes of the outputs, 0 for a move
 * @param versionsShadowed  older versions skipped because a newer version of the id was merged
 * @param tombstonesDropped tombstones that were the newest version and were dropped, because the merge
 *                          was bottommost or no segment outside it may hold their ids
 * @param maxBufferedRows   the most rows held in memory at once (one output's worth)
 * @param maxBufferedBytes  the largest estimated size of the buffered output
 * @param throttledNanos    time spent sleeping in the rate limiter
 * @param moved             the inputs became the outputs as they are, by a MANIFEST edit alone
 *                          ({@link SegmentMove}): nothing was read or written
 */
public record CompactionStats(int inputSegments, long inputBytes, long inputRows, int outputSegments,
                              long outputBytes, long outputRows, long versionsShadowed, long tombstonesDropped,
                              long maxBufferedRows, long maxBufferedBytes, long elapsedNanos, long throttledNanos,
                              boolean moved) {
    /** Bytes the compaction read: the inputs' file sizes for a merge, nothing for a move. */
    public long bytesRead() {
        return moved ? 0 : inputBytes;
    }
}
