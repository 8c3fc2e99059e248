package dev.tala.compaction;

/**
 * What one compaction did. Row counts satisfy
 * {@code inputRows == outputRows + versionsShadowed + tombstonesDropped}.
 *
 * @param inputBytes        file sizes of the inputs (every input byte is read once)
 * @param outputBytes       file sizes of the outputs (every output byte is written once)
 * @param versionsShadowed  older versions skipped because a newer version of the id was merged
 * @param tombstonesDropped tombstones that were the newest version and were dropped (bottommost only)
 * @param maxBufferedRows   the most rows held in memory at once (one output's worth)
 * @param maxBufferedBytes  the largest estimated size of the buffered output
 * @param throttledNanos    time spent sleeping in the rate limiter
 */
public record CompactionStats(int inputSegments, long inputBytes, long inputRows, int outputSegments,
                              long outputBytes, long outputRows, long versionsShadowed, long tombstonesDropped,
                              long maxBufferedRows, long maxBufferedBytes, long elapsedNanos, long throttledNanos) {
}
