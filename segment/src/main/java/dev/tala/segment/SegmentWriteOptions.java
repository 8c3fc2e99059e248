package dev.tala.segment;

import dev.tala.segment.format.TbfFormat;

/**
 * What a segment is written as: its identity, the embedding encoding, whether the reverse (CSC)
 * edge block is added, whether it is compaction output, and whether the writer forces the file
 * (benchmarks may turn that off; a database never does).
 */
public record SegmentWriteOptions(
        long segmentId,
        long createdAtNs,
        int dimension,
        EmbeddingType embeddingType,
        boolean reverseEdges,
        boolean compacted,
        boolean sync) {

    public SegmentWriteOptions {
        if (embeddingType == null) {
            throw new IllegalArgumentException("embeddingType is null");
        }
        if (dimension < TbfFormat.MIN_DIMENSION || dimension > TbfFormat.MAX_DIMENSION) {
            throw new IllegalArgumentException("dimension must be within " + TbfFormat.MIN_DIMENSION + ".."
                    + TbfFormat.MAX_DIMENSION + ", got " + dimension);
        }
    }

    /** A flush segment: reverse edges written, not compacted, forced to disk. */
    public static SegmentWriteOptions of(long segmentId, long createdAtNs, int dimension, EmbeddingType type) {
        return new SegmentWriteOptions(segmentId, createdAtNs, dimension, type, true, false, true);
    }

    public SegmentWriteOptions withReverseEdges(boolean value) {
        return new SegmentWriteOptions(segmentId, createdAtNs, dimension, embeddingType, value, compacted, sync);
    }

    public SegmentWriteOptions withCompacted(boolean value) {
        return new SegmentWriteOptions(segmentId, createdAtNs, dimension, embeddingType, reverseEdges, value, sync);
    }

    public SegmentWriteOptions withSync(boolean value) {
        return new SegmentWriteOptions(segmentId, createdAtNs, dimension, embeddingType, reverseEdges, compacted, value);
    }
}
