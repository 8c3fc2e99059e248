package dev.tala.recovery;

import dev.tala.core.error.CorruptionException;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentSummary;
import java.nio.file.Path;

/**
 * Whether a segment file is the one its MANIFEST entry describes. Reads trust the entry without
 * opening the file: a time-range scan or a filtered search skips a segment whose listed
 * timestamps miss the range, and newest-first order comes from the listed sequences. A file
 * that is not the listed one (restored from another copy of the database, or put there by hand
 * under the same number, so its header names the right segment) would then answer some queries
 * and be skipped by others, silently. RocksDB refuses an open whose table file sizes disagree
 * with its MANIFEST for the same reason.
 */
public final class ListedSegmentCheck {
    private ListedSegmentCheck() {
    }

    /**
     * The disagreement between {@code listed} and the segment file as {@code file} says it is,
     * as an error naming {@code manifest}; null when the file is the one listed.
     *
     * <p>A listed sequence range may be wider than the file's (compaction outputs and moved
     * segments carry their sorted run's range), never narrower. A listed tombstone count of 0
     * is an entry of the MANIFEST's first version, which had none, and an open takes the
     * footer's count. The entry's {@code compacted} byte is not compared: nothing reads by it.
     */
    public static CorruptionException disagreement(Path manifest, SegmentMeta listed, SegmentSummary file) {
        String differs = null;
        if (listed.fileSize() != file.fileSize()) {
            differs = listed.fileSize() + " bytes, but the file has " + file.fileSize();
        } else if (listed.rows() != file.nodeCount()) {
            differs = listed.rows() + " rows, but the file holds " + file.nodeCount();
        } else if (listed.tombstones() != 0 && listed.tombstones() != file.tombstoneCount()) {
            differs = listed.tombstones() + " tombstones, but the file holds " + file.tombstoneCount();
        } else if (file.nodeCount() > 0 && (file.minTimestamp() < listed.minTimestamp()
                || file.maxTimestamp() > listed.maxTimestamp())) {
            differs = "timestamps " + listed.minTimestamp() + ".." + listed.maxTimestamp() + ", but the file's are "
                    + file.minTimestamp() + ".." + file.maxTimestamp();
        } else if (file.nodeCount() > 0 && (file.minSequence() < listed.minSequence()
                || file.maxSequence() > listed.maxSequence())) {
            differs = "sequences " + listed.minSequence() + ".." + listed.maxSequence() + ", but the file's are "
                    + file.minSequence() + ".." + file.maxSequence();
        }
        return differs == null ? null : new CorruptionException(manifest.toString(), 0, "lists segment " + listed.id()
                + " (" + file.path() + ") with " + differs + ": the file is not the segment the MANIFEST lists");
    }
}
