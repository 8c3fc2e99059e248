package dev.tala.segment;

import java.nio.file.Path;

/**
 * What a finished write produced. Timestamps range over put rows and sequence numbers over all
 * rows; both ranges are 0..0 when there is nothing to range over. {@code flags} are the header
 * flags of the completed file (is_partial clear).
 */
public record SegmentSummary(
        Path path,
        long fileSize,
        long nodeCount,
        long edgeCount,
        long putCount,
        long tombstoneCount,
        long foreignIdCount,
        long minTimestamp,
        long maxTimestamp,
        long minSequence,
        long maxSequence,
        int flags) {
}
