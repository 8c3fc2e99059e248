package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.error.CorruptionException;
import dev.tala.segment.format.RegionKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The footer directory after validation against the header and the file size: every entry lies
 * inside the file below the footer, 64-aligned and without overlap; every required region is
 * present exactly once with the length its counts imply; and the header's offsets agree with it.
 * Unknown region kinds are kept (for verify) but otherwise ignored.
 */
public final class RegionDirectory {
    private final Map<RegionKind, RegionEntry> known;
    private final List<RegionEntry> byOffset;
    private final int nodeCount;
    private final long edgeCount;
    private final int foreignIdCount;
    private final int putCount;
    private final long stride;

    private RegionDirectory(Map<RegionKind, RegionEntry> known, List<RegionEntry> byOffset, int nodeCount,
            long edgeCount, int foreignIdCount, int putCount, long stride) {
        this.known = known;
        this.byOffset = byOffset;
        this.nodeCount = nodeCount;
        this.edgeCount = edgeCount;
        this.foreignIdCount = foreignIdCount;
        this.putCount = putCount;
        this.stride = stride;
    }

    /** The entry of a known kind; null only for CSC when the segment has no reverse edges. */
    public RegionEntry entry(RegionKind kind) {
        return known.get(kind);
    }

    /** Every entry, known or not, in file order. */
    public List<RegionEntry> entriesByOffset() {
        return byOffset;
    }

    public int nodeCount() {
        return nodeCount;
    }

    public long edgeCount() {
        return edgeCount;
    }

    public int foreignIdCount() {
        return foreignIdCount;
    }

    public int putCount() {
        return putCount;
    }

    public long stride() {
        return stride;
    }

    /**
     * Validates {@code footer} (found at {@code footerOffset}) against {@code header}.
     *
     * @throws CorruptionException naming the first inconsistency
     */
    public static RegionDirectory validate(SegmentHeader header, Footer footer, long footerOffset, String file) {
        long n = header.nodeCount();
        long e = header.edgeCount();
        long entriesAt = footerOffset + F_ENTRIES;
        if (footer.putCount() < 0 || footer.tombstoneCount() < 0
                || footer.putCount() + footer.tombstoneCount() != n) {
            throw new CorruptionException(file, footerOffset + F_PUT_COUNT, "footer put_count "
                    + Long.toUnsignedString(footer.putCount()) + " + tombstone_count "
                    + Long.toUnsignedString(footer.tombstoneCount()) + " differ from node_count " + n);
        }
        long f = footer.foreignIdCount();
        // Edge targets are u32 row-or-foreign numbers, and Java lists index by int.
        if (f < 0 || n + f > Integer.MAX_VALUE - 1) {
            throw new CorruptionException(file, footerOffset + F_FOREIGN_ID_COUNT, "foreign_id_count "
                    + Long.toUnsignedString(f) + " is not plausible for " + n + " rows");
        }
        long stride = header.embeddingType().stride(header.embeddingDim());
        long p = footer.putCount();
        if ((p > 0) != header.hasEmbeddings()) {
            throw new CorruptionException(file, H_FLAGS, "has_embeddings flag disagrees with put_count " + p);
        }

        Map<RegionKind, RegionEntry> known = new EnumMap<>(RegionKind.class);
        List<RegionEntry> all = new ArrayList<>(footer.entries());
        for (int i = 0; i < all.size(); i++) {
            RegionEntry entry = all.get(i);
            long at = entriesAt + (long) i * ENTRY_BYTES;
            String what = "footer " + entry.describe();
            if (entry.offset() < HEADER_BYTES || !isAligned(entry.offset())) {
                throw new CorruptionException(file, at + E_OFFSET, what + " offset "
                        + Long.toUnsignedString(entry.offset()) + " is not a 64-aligned offset after the header");
            }
            if (entry.storedLength() < 0 || entry.storedLength() > footerOffset - entry.offset()) {
                throw new CorruptionException(file, at + E_STORED_LENGTH, what + " ends at "
                        + endText(entry) + " beyond the footer at " + footerOffset);
            }
            RegionKind kind = entry.knownKind();
            if (kind == null) {
                continue;
            }
            if (known.putIfAbsent(kind, entry) != null) {
                throw new CorruptionException(file, at + E_KIND, what + " appears twice");
            }
            boolean compressible = kind == RegionKind.STRING_TABLE;
            if (entry.encoding() == ENCODING_RAW) {
                if (entry.rawLength() != entry.storedLength()) {
                    throw new CorruptionException(file, at + E_RAW_LENGTH, what + " raw_length "
                            + Long.toUnsignedString(entry.rawLength()) + " differs from stored_length "
                            + entry.storedLength() + " of a raw region");
                }
            } else if (!(compressible && entry.encoding() == ENCODING_ZSTD)) {
                throw new CorruptionException(file, at + E_ENCODING, what + " has unsupported encoding "
                        + entry.encoding());
            }
            long expectedLength = expectedLength(kind, n, e, f, p, stride);
            if (expectedLength >= 0 && entry.rawLength() != expectedLength) {
                throw new CorruptionException(file, at + E_RAW_LENGTH, what + " is "
                        + Long.toUnsignedString(entry.rawLength()) + " bytes, expected " + expectedLength);
            }
            if (expectedLength == -2) {
                throw new CorruptionException(file, at + E_RAW_LENGTH, what + " length overflows for "
                        + n + " rows and " + Long.toUnsignedString(e) + " edges");
            }
            long expectedElements = expectedElements(kind, n, e, f, p);
            if (expectedElements >= 0 && entry.elementCount() != expectedElements) {
                throw new CorruptionException(file, at + E_ELEMENT_COUNT, what + " element_count "
                        + Long.toUnsignedString(entry.elementCount()) + ", expected " + expectedElements);
            }
        }
        for (RegionKind kind : RegionKind.values()) {
            boolean required = kind != RegionKind.CSC || footer.hasReverseEdges();
            boolean present = known.containsKey(kind);
            if (required != present) {
                throw new CorruptionException(file, footerOffset + F_REGION_COUNT, "footer directory "
                        + (present ? "has" : "lacks") + " region " + RegionKind.describe(kind.code())
                        + (kind == RegionKind.CSC ? " but the CSC flag says otherwise" : ""));
            }
        }
        requireOffset(header.nodeRegionOffset(), known.get(RegionKind.IDS), H_NODE_REGION_OFFSET,
                "node_region_offset", file);
        requireOffset(header.embedRegionOffset(), known.get(RegionKind.EMBEDDINGS), H_EMBED_REGION_OFFSET,
                "embed_region_offset", file);
        requireOffset(header.edgeRegionOffset(), known.get(RegionKind.CSR), H_EDGE_REGION_OFFSET,
                "edge_region_offset", file);
        requireOffset(header.stringTableOffset(), known.get(RegionKind.STRING_TABLE), H_STRING_TABLE_OFFSET,
                "string_table_offset", file);
        requireOffset(header.bloomOffset(), known.get(RegionKind.BLOOM), H_BLOOM_OFFSET, "bloom_offset", file);
        requireOffset(header.indexOffset(), known.get(RegionKind.INDEX), H_INDEX_OFFSET, "index_offset", file);
        RegionEntry strings = known.get(RegionKind.STRING_TABLE);
        int expectedCompression = strings.encoding() == ENCODING_ZSTD ? COMPRESSION_ZSTD : COMPRESSION_NONE;
        if (header.compression() != expectedCompression) {
            throw new CorruptionException(file, H_COMPRESSION, "header compression " + header.compression()
                    + " disagrees with the string table encoding " + strings.encoding());
        }

        all.sort(Comparator.comparingLong(RegionEntry::offset).thenComparingLong(RegionEntry::storedLength));
        long previousEnd = HEADER_BYTES;
        RegionEntry previous = null;
        for (RegionEntry entry : all) {
            if (entry.offset() < previousEnd) {
                throw new CorruptionException(file, entry.offset(), entry.describe() + " at " + entry.offset()
                        + " overlaps " + (previous == null ? "the header" : previous.describe())
                        + " ending at " + previousEnd);
            }
            previousEnd = entry.end();
            previous = entry;
        }
        return new RegionDirectory(known, List.copyOf(all), (int) n, e, (int) f, (int) p, stride);
    }

    /** The stored length a known region must have; -1 if not fixed by counts, -2 on overflow. */
    private static long expectedLength(RegionKind kind, long n, long e, long f, long p, long stride) {
        try {
            if (kind.isNodeColumn()) {
                return Math.multiplyExact(n, kind.columnWidth());
            }
            return switch (kind) {
                case EMBEDDINGS -> Math.multiplyExact(p, stride);
                case CSR -> Math.addExact(Math.multiplyExact(n + 1, POINTER_BYTES),
                        Math.multiplyExact(e, EDGE_ENTRY_BYTES));
                case CSC -> Math.addExact(Math.multiplyExact(n + f + 1, POINTER_BYTES),
                        Math.multiplyExact(e, EDGE_ENTRY_BYTES));
                case FOREIGN_IDS -> Math.multiplyExact(f, ID_BYTES);
                default -> -1;
            };
        } catch (ArithmeticException overflow) {
            return -2;
        }
    }

    private static long expectedElements(RegionKind kind, long n, long e, long f, long p) {
        if (kind.isNodeColumn()) {
            return n;
        }
        return switch (kind) {
            case EMBEDDINGS -> p;
            case CSR, CSC -> e;
            case FOREIGN_IDS -> f;
            case BLOOM -> n;
            default -> -1;
        };
    }

    private static void requireOffset(long headerValue, RegionEntry entry, int field, String name, String file) {
        if (headerValue != entry.offset()) {
            throw new CorruptionException(file, field, "header " + name + " " + headerValue
                    + " disagrees with the footer directory (" + entry.offset() + ")");
        }
    }

    private static String endText(RegionEntry entry) {
        long end = entry.offset() + entry.storedLength();
        return entry.storedLength() < 0 || end < 0 ? "an overflowing offset" : Long.toString(end);
    }
}
