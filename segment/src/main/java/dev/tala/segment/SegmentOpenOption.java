package dev.tala.segment;

/** How a segment is opened. */
public enum SegmentOpenOption {
    /**
     * Open a segment whose header still says is_partial, for inspection tools. The engine never
     * does: a partial segment is discarded at recovery and its data replayed from the WAL.
     */
    ALLOW_PARTIAL
}
