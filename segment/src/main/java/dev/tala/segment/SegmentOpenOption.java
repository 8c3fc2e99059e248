package dev.tala.segment;

/** How a segment is opened. */
public enum SegmentOpenOption {
    /**
     * Open a segment whose header still says is_partial, for inspection tools. The engine never
     * does: a partial segment is discarded at recovery and its data replayed from the WAL.
     */
    ALLOW_PARTIAL,
    /**
     * Check the CRC32C of every region while opening, so that a damaged segment is refused at
     * once rather than when the damaged region is first read. Without it, only the regions a
     * point lookup depends on (bloom filter, id index, foreign ids) are checked at open and every
     * other region on its first access; either way no unchecked byte is ever returned. Only
     * {@link SegmentReader#open} reads regions; {@link SegmentReader#readSummary} ignores this.
     */
    VERIFY_ALL
}
