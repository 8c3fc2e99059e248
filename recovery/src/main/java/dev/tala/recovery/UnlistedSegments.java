package dev.tala.recovery;

import dev.tala.core.error.TalaException;
import dev.tala.core.io.FileLayer;
import dev.tala.segment.SegmentHeader;
import dev.tala.segment.SegmentOpenOption;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.format.TbfFormat;
import java.io.IOException;
import java.nio.file.Path;

/**
 * How a segment file the MANIFEST does not list is judged (docs/RECOVERY.md, step 4), in one
 * place for the open that acts on it and for {@code verify}, which says what the open will do.
 */
final class UnlistedSegments {
    private UnlistedSegments() {
    }

    /**
     * Why the file may be deleted (it was never complete), or null if it looks complete and
     * must be kept.
     */
    static String whyIncomplete(FileLayer fs, Path segment) throws IOException {
        long size = fs.size(segment);
        if (size < TbfFormat.HEADER_BYTES) {
            return "unlisted and only " + size + " bytes: its write was interrupted before the header";
        }
        try {
            SegmentHeader header = SegmentReader.readHeader(fs, segment);
            return header.isPartial() ? "is_partial set: its flush or compaction was interrupted" : null;
        } catch (TalaException unreadable) {
            // Not provably partial: keep it for inspection rather than delete it.
            return null;
        }
    }

    /**
     * Why a file kept by {@link #whyIncomplete} is set aside: a complete segment, or a file that
     * only carries a segment's name (its header does not decode), said as such.
     */
    static String whySetAside(FileLayer fs, Path segment) throws IOException {
        try {
            SegmentReader.readHeader(fs, segment);
            return "a complete segment the MANIFEST does not list";
        } catch (TalaException unreadable) {
            return "named as a segment, but the MANIFEST does not list it and it does not read as one ("
                    + unreadable.getMessage() + ")";
        }
    }

    /**
     * The highest sequence number a complete file says it holds, or -1 if its summary cannot be
     * read (nothing to vouch for: it is set aside for inspection).
     */
    static long newestSequence(FileLayer fs, Path segment) throws IOException {
        try {
            return SegmentReader.readSummary(fs, segment, SegmentOpenOption.ALLOW_PARTIAL).maxSequence();
        } catch (TalaException unreadable) {
            return -1;
        }
    }
}
