package dev.tala.segment;

import java.nio.file.Path;
import java.util.List;

/**
 * A segment's header and footer, read and validated without mapping the file: what listing and
 * stats tools show.
 */
public record SegmentInfo(Path path, long fileSize, SegmentHeader header, Footer footer, RegionDirectory directory) {
    public long nodeCount() {
        return header.nodeCount();
    }

    public long edgeCount() {
        return header.edgeCount();
    }

    public long putCount() {
        return footer.putCount();
    }

    public long tombstoneCount() {
        return footer.tombstoneCount();
    }

    public long minTimestamp() {
        return footer.minTimestamp();
    }

    public long maxTimestamp() {
        return footer.maxTimestamp();
    }

    public long minSequence() {
        return footer.minSequence();
    }

    public long maxSequence() {
        return footer.maxSequence();
    }

    public int flags() {
        return header.flags();
    }

    /** The footer directory in file order. */
    public List<RegionEntry> regions() {
        return directory.entriesByOffset();
    }
}
