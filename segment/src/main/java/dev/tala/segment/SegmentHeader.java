package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.UnsupportedFormatException;
import java.lang.foreign.MemorySegment;

/**
 * The 128-byte header at offset 0 of a TBF segment, as a value. {@link #decode} accepts only a
 * header this reader can trust: right magic, major version 1, matching CRC, zero reserved bytes,
 * known dtype and compression, a dimension in range and 64-aligned region offsets.
 */
public record SegmentHeader(
        int versionMajor,
        int versionMinor,
        long segmentId,
        long createdAtNs,
        long nodeCount,
        long edgeCount,
        int embeddingDim,
        EmbeddingType embeddingType,
        int compression,
        int flags,
        long nodeRegionOffset,
        long embedRegionOffset,
        long edgeRegionOffset,
        long stringTableOffset,
        long bloomOffset,
        long indexOffset,
        long footerOffset) {

    public boolean hasOutcomes() {
        return (flags & FLAG_HAS_OUTCOMES) != 0;
    }

    public boolean hasEmbeddings() {
        return (flags & FLAG_HAS_EMBEDDINGS) != 0;
    }

    public boolean isCompacted() {
        return (flags & FLAG_IS_COMPACTED) != 0;
    }

    public boolean isEncrypted() {
        return (flags & FLAG_IS_ENCRYPTED) != 0;
    }

    public boolean isPartial() {
        return (flags & FLAG_IS_PARTIAL) != 0;
    }

    public SegmentHeader withFlags(int newFlags) {
        return new SegmentHeader(versionMajor, versionMinor, segmentId, createdAtNs, nodeCount, edgeCount,
                embeddingDim, embeddingType, compression, newFlags, nodeRegionOffset, embedRegionOffset,
                edgeRegionOffset, stringTableOffset, bloomOffset, indexOffset, footerOffset);
    }

    /** The 128 header bytes, checksum included. */
    public byte[] encode() {
        byte[] bytes = new byte[HEADER_BYTES];
        MemorySegment s = MemorySegment.ofArray(bytes);
        MemorySegment.copy(MAGIC, 0, s, U8, H_MAGIC, MAGIC.length);
        s.set(U16, H_VERSION_MAJOR, (short) versionMajor);
        s.set(U16, H_VERSION_MINOR, (short) versionMinor);
        s.set(U64, H_SEGMENT_ID, segmentId);
        s.set(U64, H_CREATED_AT, createdAtNs);
        s.set(U64, H_NODE_COUNT, nodeCount);
        s.set(U64, H_EDGE_COUNT, edgeCount);
        s.set(U32, H_EMBEDDING_DIM, embeddingDim);
        s.set(U8, H_EMBEDDING_DTYPE, (byte) embeddingType.code());
        s.set(U8, H_COMPRESSION, (byte) compression);
        s.set(U16, H_FLAGS, (short) flags);
        s.set(U64, H_NODE_REGION_OFFSET, nodeRegionOffset);
        s.set(U64, H_EMBED_REGION_OFFSET, embedRegionOffset);
        s.set(U64, H_EDGE_REGION_OFFSET, edgeRegionOffset);
        s.set(U64, H_STRING_TABLE_OFFSET, stringTableOffset);
        s.set(U64, H_BLOOM_OFFSET, bloomOffset);
        s.set(U64, H_INDEX_OFFSET, indexOffset);
        s.set(U64, H_FOOTER_OFFSET, footerOffset);
        s.set(U32, H_CHECKSUM, Crc32c.of(bytes, 0, H_CHECKSUM));
        return bytes;
    }

    /**
     * Decodes and validates the header at {@code bytes[0, 128)}. Partial and encrypted headers are
     * returned as they are: whether to refuse them is the opener's policy.
     *
     * @throws CorruptionException if the bytes are not a sound TBF header
     * @throws UnsupportedFormatException for another major version or an lz4 string table
     */
    public static SegmentHeader decode(MemorySegment bytes, String file) {
        if (bytes.byteSize() < HEADER_BYTES) {
            throw new CorruptionException(file, 0, "file has " + bytes.byteSize()
                    + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
        }
        if (bytes.get(U32, H_MAGIC) != MAGIC_LE) {
            throw new CorruptionException(file, H_MAGIC, "bad magic: not a TBF segment (expected \"TALB\")");
        }
        int major = Short.toUnsignedInt(bytes.get(U16, H_VERSION_MAJOR));
        int minor = Short.toUnsignedInt(bytes.get(U16, H_VERSION_MINOR));
        // A newer major may move every other field, the checksum included, so nothing after the
        // version is interpreted before it is known to be ours.
        if (major != VERSION_MAJOR) {
            throw new UnsupportedFormatException(file, "TBF format version " + major + "." + minor
                    + " is not supported (this reader reads major version " + VERSION_MAJOR + ")");
        }
        int stored = bytes.get(U32, H_CHECKSUM);
        int computed = Crc32c.of(bytes, 0, H_CHECKSUM);
        if (stored != computed) {
            throw new CorruptionException(file, H_CHECKSUM, "header checksum mismatch (stored "
                    + hex(stored) + ", computed " + hex(computed) + ")");
        }
        for (int i = H_RESERVED; i < HEADER_BYTES; i++) {
            if (bytes.get(U8, i) != 0) {
                throw new CorruptionException(file, i, "header reserved byte is not zero");
            }
        }
        int dtypeCode = Byte.toUnsignedInt(bytes.get(U8, H_EMBEDDING_DTYPE));
        EmbeddingType type = EmbeddingType.ofCode(dtypeCode);
        if (type == null) {
            throw new CorruptionException(file, H_EMBEDDING_DTYPE, "unknown embedding_dtype " + dtypeCode);
        }
        long dim = Integer.toUnsignedLong(bytes.get(U32, H_EMBEDDING_DIM));
        if (dim < MIN_DIMENSION || dim > MAX_DIMENSION) {
            throw new CorruptionException(file, H_EMBEDDING_DIM, "embedding_dim " + dim + " is outside "
                    + MIN_DIMENSION + ".." + MAX_DIMENSION);
        }
        int compression = Byte.toUnsignedInt(bytes.get(U8, H_COMPRESSION));
        if (compression == COMPRESSION_LZ4) {
            throw new UnsupportedFormatException(file, "lz4-compressed segments are not supported");
        }
        if (compression != COMPRESSION_NONE && compression != COMPRESSION_ZSTD) {
            throw new CorruptionException(file, H_COMPRESSION, "unknown compression code " + compression);
        }
        long nodeCount = bytes.get(U64, H_NODE_COUNT);
        // Rows are addressed by int; embed slots and edge targets are u32 with 0xFFFFFFFF reserved.
        if (nodeCount < 0 || nodeCount > Integer.MAX_VALUE - 1) {
            throw new CorruptionException(file, H_NODE_COUNT, "node_count " + Long.toUnsignedString(nodeCount)
                    + " exceeds the supported maximum " + (Integer.MAX_VALUE - 1));
        }
        long edgeCount = bytes.get(U64, H_EDGE_COUNT);
        if (edgeCount < 0) {
            throw new CorruptionException(file, H_EDGE_COUNT, "edge_count " + Long.toUnsignedString(edgeCount)
                    + " is not plausible");
        }
        long nodeRegion = offsetField(bytes, H_NODE_REGION_OFFSET, "node_region_offset", file);
        if (nodeRegion != HEADER_BYTES) {
            throw new CorruptionException(file, H_NODE_REGION_OFFSET, "node_region_offset is " + nodeRegion
                    + ", expected " + HEADER_BYTES);
        }
        return new SegmentHeader(major, minor,
                bytes.get(U64, H_SEGMENT_ID),
                bytes.get(U64, H_CREATED_AT),
                nodeCount,
                edgeCount,
                (int) dim,
                type,
                compression,
                Short.toUnsignedInt(bytes.get(U16, H_FLAGS)),
                nodeRegion,
                offsetField(bytes, H_EMBED_REGION_OFFSET, "embed_region_offset", file),
                offsetField(bytes, H_EDGE_REGION_OFFSET, "edge_region_offset", file),
                offsetField(bytes, H_STRING_TABLE_OFFSET, "string_table_offset", file),
                offsetField(bytes, H_BLOOM_OFFSET, "bloom_offset", file),
                offsetField(bytes, H_INDEX_OFFSET, "index_offset", file),
                offsetField(bytes, H_FOOTER_OFFSET, "footer_offset", file));
    }

    private static long offsetField(MemorySegment bytes, int at, String name, String file) {
        long v = bytes.get(U64, at);
        if (v < HEADER_BYTES || !isAligned(v)) {
            throw new CorruptionException(file, at, name + " " + Long.toUnsignedString(v)
                    + " is not a 64-aligned offset after the header");
        }
        return v;
    }

    static String hex(int v) {
        return String.format("0x%08x", v);
    }
}
