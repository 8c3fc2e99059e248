package dev.tala.segment;

import dev.tala.segment.format.TbfFormat;

/**
 * What the database records about a live segment in its MANIFEST: enough to list segments, to
 * plan compactions and to prune by time or sequence without opening the file.
 *
 * @param level      0 for a segment written by a flush; compaction outputs go one level up
 * @param fileSize   bytes on disk
 * @param rows       rows, tombstones included
 * @param tombstones rows that are tombstones (the footer's {@code tombstone_count}); an entry of a
 *                   MANIFEST written before this field existed reads as 0, and an open takes the
 *                   count from the segment's footer
 * @param minSequence lowest sequence number of its rows; for compaction output, of all the
 *                    outputs of its compaction (the sorted run it belongs to), a bound on its rows
 * @param maxSequence highest sequence number, likewise
 * @param compacted  whether the segment is compaction output ({@code is_compacted})
 */
public record SegmentMeta(long id, int level, long fileSize, long rows, long tombstones, long minTimestamp,
                          long maxTimestamp, long minSequence, long maxSequence, boolean compacted) {
    public SegmentMeta {
        if (id < 0 || level < 0 || level > 255 || fileSize < 0 || rows < 0 || tombstones < 0 || tombstones > rows) {
            throw new IllegalArgumentException("impossible segment metadata: id " + id + ", level " + level
                    + ", size " + fileSize + ", rows " + rows + ", tombstones " + tombstones);
        }
    }

    /** The metadata of a segment from its header and footer, at the given level. */
    public static SegmentMeta of(long id, int level, SegmentInfo info) {
        return new SegmentMeta(id, level, info.fileSize(), info.nodeCount(), info.tombstoneCount(),
                info.minTimestamp(), info.maxTimestamp(), info.minSequence(), info.maxSequence(),
                (info.flags() & TbfFormat.FLAG_IS_COMPACTED) != 0);
    }

    /** The metadata of a segment just written, as its writer summed it up. */
    public static SegmentMeta of(long id, int level, SegmentSummary written, boolean compacted) {
        return new SegmentMeta(id, level, written.fileSize(), written.nodeCount(), written.tombstoneCount(),
                written.minTimestamp(), written.maxTimestamp(), written.minSequence(), written.maxSequence(),
                compacted);
    }

    /** This metadata with another sequence range (see {@code minSequence}). */
    public SegmentMeta withSequenceRange(long min, long max) {
        return new SegmentMeta(id, level, fileSize, rows, tombstones, minTimestamp, maxTimestamp, min, max, compacted);
    }

    /** This metadata with another tombstone count, e.g. the footer's for an entry that had none. */
    public SegmentMeta withTombstones(long count) {
        return new SegmentMeta(id, level, fileSize, rows, count, minTimestamp, maxTimestamp, minSequence, maxSequence,
                compacted);
    }

    /** This metadata at another level with another sequence range: a segment moved by a compaction. */
    public SegmentMeta movedTo(int newLevel, long min, long max) {
        return new SegmentMeta(id, newLevel, fileSize, rows, tombstones, minTimestamp, maxTimestamp, min, max,
                compacted);
    }
}
