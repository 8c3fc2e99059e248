package dev.tala.segment;

import dev.tala.segment.format.RegionKind;

/**
 * One footer directory entry: where a region lies, how it is encoded and its CRC32C over the
 * stored bytes. {@code kind} stays a raw code so that entries of unknown (newer) kinds survive.
 */
public record RegionEntry(
        int kind,
        int encoding,
        int crc,
        long offset,
        long storedLength,
        long rawLength,
        long elementCount) {

    /** The known kind, or null for a kind from a newer minor version. */
    public RegionKind knownKind() {
        return RegionKind.ofCode(kind);
    }

    /** First byte after the region; callers check for overflow before relying on it. */
    public long end() {
        return offset + storedLength;
    }

    public String describe() {
        return "region " + RegionKind.describe(kind);
    }
}
