package dev.tala.segment.format;

import dev.tala.core.model.IntentLimits;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Every number that defines the TBF byte layout, in one place: the writer, the reader, the
 * verifier and docs/FORMAT.md all agree because they all read these. Offsets named {@code H_*}
 * are inside the 128-byte header, {@code F_*} inside the footer head, {@code E_*} inside one
 * footer directory entry.
 */
public final class TbfFormat {
    private TbfFormat() {
    }

    // ---- identity and versioning ------------------------------------------------------------

    /** The first four bytes of the file and its last four. */
    public static final byte[] MAGIC = {'T', 'A', 'L', 'B'};
    /** {@link #MAGIC} read as a little-endian u32, to compare in one load. */
    public static final int MAGIC_LE = 0x424C4154;
    public static final int VERSION_MAJOR = 1;
    public static final int VERSION_MINOR = 0;

    /** Every region starts at a multiple of this, so a 512-bit SIMD load never straddles two. */
    public static final int ALIGNMENT = 64;

    // ---- header -----------------------------------------------------------------------------

    public static final int HEADER_BYTES = 128;
    public static final int H_MAGIC = 0;
    public static final int H_VERSION_MAJOR = 4;
    public static final int H_VERSION_MINOR = 6;
    public static final int H_SEGMENT_ID = 8;
    public static final int H_CREATED_AT = 16;
    public static final int H_NODE_COUNT = 24;
    public static final int H_EDGE_COUNT = 32;
    public static final int H_EMBEDDING_DIM = 40;
    public static final int H_EMBEDDING_DTYPE = 44;
    public static final int H_COMPRESSION = 45;
    public static final int H_FLAGS = 46;
    public static final int H_NODE_REGION_OFFSET = 48;
    public static final int H_EMBED_REGION_OFFSET = 56;
    public static final int H_EDGE_REGION_OFFSET = 64;
    public static final int H_STRING_TABLE_OFFSET = 72;
    public static final int H_BLOOM_OFFSET = 80;
    public static final int H_INDEX_OFFSET = 88;
    public static final int H_FOOTER_OFFSET = 96;
    /** CRC32C of header bytes [0, H_CHECKSUM). */
    public static final int H_CHECKSUM = 104;
    /** Not covered by the checksum, hence required to be zero. */
    public static final int H_RESERVED = 108;
    public static final int H_RESERVED_BYTES = HEADER_BYTES - H_RESERVED;

    public static final int FLAG_HAS_OUTCOMES = 1;
    public static final int FLAG_HAS_EMBEDDINGS = 1 << 1;
    public static final int FLAG_IS_COMPACTED = 1 << 2;
    public static final int FLAG_IS_ENCRYPTED = 1 << 3;
    public static final int FLAG_IS_PARTIAL = 1 << 4;

    public static final int DTYPE_F32 = 0;
    public static final int DTYPE_F16 = 1;
    public static final int DTYPE_BF16 = 2;
    public static final int DTYPE_INT8 = 3;

    /** Header {@code compression}: the codec of the string table, the only region ever compressed. */
    public static final int COMPRESSION_NONE = 0;
    public static final int COMPRESSION_LZ4 = 1;
    public static final int COMPRESSION_ZSTD = 2;

    /** Embedding dimension bounds: those of an intent, which keep one vector's stride under 1 MiB. */
    public static final int MIN_DIMENSION = 1;
    public static final int MAX_DIMENSION = IntentLimits.MAX_DIMENSION;

    // ---- node region ------------------------------------------------------------------------

    public static final int ID_BYTES = 16;
    public static final int U64_BYTES = 8;
    public static final int U32_BYTES = 4;
    public static final int F32_BYTES = 4;
    public static final int U16_BYTES = 2;
    public static final int U8_BYTES = 1;

    public static final int ROW_FLAG_TOMBSTONE = 1;
    public static final int ROW_FLAG_HAS_OUTCOME = 1 << 1;
    public static final int ROW_FLAGS_KNOWN = ROW_FLAG_TOMBSTONE | ROW_FLAG_HAS_OUTCOME;

    /** embed_slot and command_ref of a tombstone row (u32 0xFFFFFFFF). */
    public static final int NONE_U32 = 0xFFFF_FFFF;

    // ---- embedding region -------------------------------------------------------------------

    /** int8 vectors start with f32 scale then f32 zero_point. */
    public static final int INT8_HEADER_BYTES = 8;
    public static final int INT8_SCALE = 0;
    public static final int INT8_ZERO_POINT = 4;
    /** Symmetric quantization range [-127, 127]; -128 is never written but is decoded. */
    public static final int INT8_MAX = 127;
    /** f16 values saturate here instead of becoming infinite (largest finite binary16). */
    public static final float F16_MAX_FINITE = 65504.0f;
    /** bf16 values saturate at this magnitude (exponent 0xFE, full mantissa). */
    public static final int BF16_MAX_FINITE_BITS = 0x7F7F;
    public static final int BF16_EXPONENT_BITS = 0x7F80;

    // ---- edge region ------------------------------------------------------------------------

    public static final int POINTER_BYTES = 8;
    public static final int EDGE_ENTRY_BYTES = 12;
    public static final int EDGE_TARGET = 0;
    public static final int EDGE_RELATION = 4;
    public static final int EDGE_WEIGHT = 5;
    public static final int EDGE_PADDING = 9;
    public static final int EDGE_PADDING_BYTES = 3;

    // ---- string table -----------------------------------------------------------------------

    public static final int ST_COUNT = 0;
    public static final int ST_OFFSETS = 4;
    public static final int ST_OFFSET_BYTES = 4;
    /** Tables this small are never compressed: a zstd frame header alone eats the gain. */
    public static final int ST_COMPRESS_MIN_BYTES = 64;
    /** Keep the compressed table only if stored * DEN < raw * NUM, i.e. below 90% of raw. */
    public static final int ST_COMPRESS_KEEP_NUM = 9;
    public static final int ST_COMPRESS_KEEP_DEN = 10;
    public static final int ST_ZSTD_LEVEL = 3;
    /** Longest command a row may carry, for the plausibility bound on a table's raw length. */
    public static final int ST_MAX_STRING_BYTES = IntentLimits.MAX_COMMAND_BYTES;
    /** Largest string table, raw or stored: 2^31 - 65 bytes, so that it fits one Java array. */
    public static final int ST_MAX_TABLE_BYTES = Integer.MAX_VALUE - 64;

    // ---- bloom filter -----------------------------------------------------------------------

    public static final int BLOOM_NUM_HASHES = 0;
    public static final int BLOOM_NUM_BITS = 4;
    public static final int BLOOM_WORDS = 12;
    public static final int BLOOM_HEAD_BYTES = 12;
    public static final double BLOOM_FALSE_POSITIVE_RATE = 0.01;
    /** ln 2 rounded to the nearest f64, fixed here so sizing never depends on a library log(2). */
    public static final double BLOOM_LN_2 = 0.6931471805599453;
    public static final long BLOOM_MIN_BITS = 64;
    /** A generous upper bound a reader accepts; the formulas give at most 45 (n = 1). */
    public static final int BLOOM_MAX_HASHES = 255;

    // ---- id index ---------------------------------------------------------------------------

    public static final int INDEX_BLOCK_ROWS_FIELD = 0;
    public static final int INDEX_BLOCK_COUNT = 4;
    public static final int INDEX_FENCES = 8;
    public static final int INDEX_HEAD_BYTES = 8;
    /** 64 rows of 16-byte ids = 16 cache lines searched after the fence search. */
    public static final int INDEX_BLOCK_ROWS = 64;

    // ---- footer -----------------------------------------------------------------------------

    public static final int FOOTER_VERSION = 1;
    public static final int F_VERSION = 0;
    public static final int F_REGION_COUNT = 4;
    public static final int F_MIN_TIMESTAMP = 8;
    public static final int F_MAX_TIMESTAMP = 16;
    public static final int F_MIN_SEQUENCE = 24;
    public static final int F_MAX_SEQUENCE = 32;
    public static final int F_PUT_COUNT = 40;
    public static final int F_TOMBSTONE_COUNT = 48;
    public static final int F_FOREIGN_ID_COUNT = 56;
    public static final int F_FLAGS = 64;
    public static final int F_RESERVED = 68;
    public static final int F_ENTRIES = 72;
    public static final int FOOTER_CRC_BYTES = 4;
    /** Region kinds are u16 codes, so a sane directory never needs more entries than this. */
    public static final int FOOTER_MAX_REGIONS = 1 << 16;

    public static final int FOOTER_FLAG_CSC = 1;

    public static final int ENTRY_BYTES = 40;
    public static final int E_KIND = 0;
    public static final int E_ENCODING = 2;
    public static final int E_RESERVED = 3;
    public static final int E_CRC = 4;
    public static final int E_OFFSET = 8;
    public static final int E_STORED_LENGTH = 16;
    public static final int E_RAW_LENGTH = 24;
    public static final int E_ELEMENT_COUNT = 32;

    public static final int ENCODING_RAW = 0;
    public static final int ENCODING_ZSTD = 2;

    // ---- trailer ----------------------------------------------------------------------------

    public static final int TRAILER_BYTES = 8;
    public static final int T_FOOTER_LENGTH = 0;
    public static final int T_MAGIC = 4;

    // ---- region kinds (footer directory) ----------------------------------------------------

    public static final int KIND_IDS = 1;
    public static final int KIND_TIMESTAMPS = 2;
    public static final int KIND_CONTEXT_HASHES = 3;
    public static final int KIND_CONFIDENCES = 4;
    public static final int KIND_STATUSES = 5;
    public static final int KIND_SEQUENCE = 6;
    public static final int KIND_ROW_FLAGS = 7;
    public static final int KIND_EMBED_SLOT = 8;
    public static final int KIND_COMMAND_REF = 9;
    public static final int KIND_OUTCOME_LATENCY = 10;
    public static final int KIND_OUTCOME_EXIT_CODE = 11;
    public static final int KIND_EMBEDDINGS = 12;
    public static final int KIND_CSR = 13;
    public static final int KIND_CSC = 14;
    public static final int KIND_FOREIGN_IDS = 15;
    public static final int KIND_STRING_TABLE = 16;
    public static final int KIND_BLOOM = 17;
    public static final int KIND_INDEX = 18;

    // ---- byte order -------------------------------------------------------------------------

    // Unaligned layouts throughout: most fields are naturally aligned, but the bloom words and the
    // edge weights are not, and a reader must never fault on a layout it did not write itself.
    public static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
    public static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    public static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Ids are the one big-endian field: byte order is their sort order. */
    public static final ValueLayout.OfLong U64_BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The next multiple of {@link #ALIGNMENT} at or above {@code value} (value >= 0). */
    public static long alignUp(long value) {
        return Math.addExact(value, ALIGNMENT - 1) & -ALIGNMENT;
    }

    public static boolean isAligned(long value) {
        return (value & (ALIGNMENT - 1)) == 0;
    }
}
