package dev.tala.recovery;

import dev.tala.core.error.CorruptionException;
import dev.tala.segment.SegmentInfo;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.format.TbfFormat;
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
     * What every open refuses of listed segment {@code listed} before it reads a row, as an
     * error; null when {@code file} is the segment the entry describes. A header naming another
     * segment is a file restored under another name; otherwise the fields are compared.
     */
    public static CorruptionException refusal(Path manifest, SegmentMeta listed, SegmentReader file) {
        return refusal(manifest, file.path(), listed, file.header().segmentId(),
                SegmentMeta.of(listed.id(), listed.level(), file.summary(), listed.compacted()));
    }

    /** As {@link #refusal(Path, SegmentMeta, SegmentReader)}, from a file's header and footer alone. */
    public static CorruptionException refusal(Path manifest, SegmentMeta listed, SegmentInfo file) {
        return refusal(manifest, file.path(), listed, file.header().segmentId(),
                SegmentMeta.of(listed.id(), listed.level(), file));
    }

    private static CorruptionException refusal(Path manifest, Path file, SegmentMeta listed, long named,
                                               SegmentMeta found) {
        if (named != listed.id()) {
            return new CorruptionException(file.toString(), TbfFormat.H_SEGMENT_ID, "header names segment " + named
                    + " but the file is segment " + listed.id());
        }
        return disagreement(manifest, file, listed, found);
    }

    /**
     * The disagreement between {@code listed} and what the file says of itself, as an error
     * naming {@code manifest}; null when they agree.
     *
     * <p>A listed sequence range may be wider than the file's (compaction outputs and moved
     * segments carry their sorted run's range), never narrower. A listed tombstone count of 0
     * is an entry of the MANIFEST's first version, which had none, and an open takes the
     * footer's count. The entry's {@code compacted} byte is not compared: nothing reads by it.
     */
    static CorruptionException disagreement(Path manifest, Path file, SegmentMeta listed, SegmentMeta found) {
        String differs = null;
        if (listed.fileSize() != found.fileSize()) {
            differs = listed.fileSize() + " bytes, but the file has " + found.fileSize();
        } else if (listed.rows() != found.rows()) {
            differs = listed.rows() + " rows, but the file holds " + found.rows();
        } else if (listed.tombstones() != 0 && listed.tombstones() != found.tombstones()) {
            differs = listed.tombstones() + " tombstones, but the file holds " + found.tombstones();
        } else if (found.rows() > 0 && (found.minTimestamp() < listed.minTimestamp()
                || found.maxTimestamp() > listed.maxTimestamp())) {
            differs = "timestamps " + listed.minTimestamp() + ".." + listed.maxTimestamp() + ", but the file's are "
                    + found.minTimestamp() + ".." + found.maxTimestamp();
        } else if (found.rows() > 0 && (found.minSequence() < listed.minSequence()
                || found.maxSequence() > listed.maxSequence())) {
            differs = "sequences " + listed.minSequence() + ".." + listed.maxSequence() + ", but the file's are "
                    + found.minSequence() + ".." + found.maxSequence();
        }
        return differs == null ? null : new CorruptionException(manifest.toString(), 0, "lists segment " + listed.id()
                + " (" + file + ") with " + differs + ": the file is not the segment the MANIFEST lists");
    }
}
