package dev.tala.segment;

import dev.tala.segment.format.TbfFormat;

/** How the embedding region stores one vector component (header {@code embedding_dtype}). */
public enum EmbeddingType {
    F32(TbfFormat.DTYPE_F32, TbfFormat.F32_BYTES),
    F16(TbfFormat.DTYPE_F16, TbfFormat.U16_BYTES),
    BF16(TbfFormat.DTYPE_BF16, TbfFormat.U16_BYTES),
    INT8(TbfFormat.DTYPE_INT8, TbfFormat.U8_BYTES);

    private final int code;
    private final int bytesPerComponent;

    EmbeddingType(int code, int bytesPerComponent) {
        this.code = code;
        this.bytesPerComponent = bytesPerComponent;
    }

    public int code() {
        return code;
    }

    public int bytesPerComponent() {
        return bytesPerComponent;
    }

    /** Bytes one encoded vector occupies before padding (int8 includes its scale/zero_point header). */
    public long vectorBytes(int dimension) {
        long payload = (long) dimension * bytesPerComponent;
        return this == INT8 ? payload + TbfFormat.INT8_HEADER_BYTES : payload;
    }

    /** Distance between consecutive vectors: the vector size rounded up to the 64-byte alignment. */
    public long stride(int dimension) {
        return TbfFormat.alignUp(vectorBytes(dimension));
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The type with this code, or null if there is none. */
    public static EmbeddingType ofCode(int code) {
        for (EmbeddingType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
