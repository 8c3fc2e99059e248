package dev.tala.compaction;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.StoredRow;
import dev.tala.segment.format.RegionKind;
import dev.tala.segment.format.TbfFormat;

/**
 * Estimates how many bytes a row will take in a TBF segment, before the segment is written, so
 * that compaction can cut its output at a target size. Derived from the format's own constants
 * (node column widths, embedding stride, edge entry size), so it follows the format if that
 * changes. It errs on the large side: every edge is counted as if its target were foreign and
 * every command as if it were not deduplicated, so outputs land at or below the target.
 */
public final class RowSizeEstimator {
    /** The spec and extension node columns, one value per row (tombstones included). */
    static final long NODE_COLUMN_BYTES_PER_ROW = nodeColumnBytes();

    /**
     * Bloom filter (about 9.6 bits per id at 1% false positives) plus the id index's fences
     * (one 16-byte id per 64 rows), rounded up.
     */
    static final long BLOOM_AND_INDEX_BYTES_PER_ROW = 2;

    /** Header, trailer, footer directory and the alignment padding before every region. */
    static final long SEGMENT_OVERHEAD_BYTES = TbfFormat.HEADER_BYTES + TbfFormat.TRAILER_BYTES
            + TbfFormat.F_ENTRIES + TbfFormat.FOOTER_CRC_BYTES
            + (long) RegionKind.values().length * (TbfFormat.ENTRY_BYTES + TbfFormat.ALIGNMENT);

    private final long stride;
    private final long pointerBytesPerRow;
    private final long bytesPerEdge;

    /**
     * @param reverseEdges whether the output carries the reverse (CSC) block, which repeats every
     *     edge and adds a column pointer per row
     */
    public RowSizeEstimator(int dimension, EmbeddingType type, boolean reverseEdges) {
        this.stride = type.stride(dimension);
        int blocks = reverseEdges ? 2 : 1;
        this.pointerBytesPerRow = (long) blocks * TbfFormat.POINTER_BYTES;
        // A foreign target costs its 16-byte id in the foreign table and, with CSC, a column pointer.
        long foreign = TbfFormat.ID_BYTES + (reverseEdges ? TbfFormat.POINTER_BYTES : 0);
        this.bytesPerEdge = (long) blocks * TbfFormat.EDGE_ENTRY_BYTES + foreign;
    }

    /** Bytes every segment spends whatever its rows. */
    public long segmentOverhead() {
        return SEGMENT_OVERHEAD_BYTES;
    }

    public long estimate(IntentVersion version) {
        Intent intent = version.intent();
        return intent == null ? tombstoneBytes()
                : putBytes(intent.commandBytes(), intent.edges().size());
    }

    /** The same estimate for a stored row, read without decoding it. */
    public long estimate(StoredRow stored) {
        SegmentReader reader = stored.reader();
        int row = stored.row();
        return reader.isTombstone(row) ? tombstoneBytes()
                : putBytes(IntentLimits.commandBytes(reader.command(row)), reader.outDegree(row));
    }

    private long tombstoneBytes() {
        // A tombstone spends no embedding slot and no string.
        return NODE_COLUMN_BYTES_PER_ROW + BLOOM_AND_INDEX_BYTES_PER_ROW + pointerBytesPerRow;
    }

    private long putBytes(int commandBytes, int edges) {
        return tombstoneBytes() + stride + TbfFormat.ST_OFFSET_BYTES + commandBytes + edges * bytesPerEdge;
    }

    private static long nodeColumnBytes() {
        long sum = 0;
        for (RegionKind kind : RegionKind.values()) {
            sum += kind.columnWidth();
        }
        return sum;
    }
}
