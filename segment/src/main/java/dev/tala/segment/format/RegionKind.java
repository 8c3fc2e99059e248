package dev.tala.segment.format;

import static dev.tala.segment.format.TbfFormat.*;

/**
 * The regions this reader knows, keyed by their footer directory code. A directory entry whose
 * code is not here belongs to a newer minor version and is skipped (but still checksummed by
 * verify). Node columns carry their element width so that their expected length is N * width.
 */
public enum RegionKind {
    IDS(KIND_IDS, "ids", ID_BYTES),
    TIMESTAMPS(KIND_TIMESTAMPS, "timestamps", U64_BYTES),
    CONTEXT_HASHES(KIND_CONTEXT_HASHES, "context_hashes", U64_BYTES),
    CONFIDENCES(KIND_CONFIDENCES, "confidences", F32_BYTES),
    STATUSES(KIND_STATUSES, "statuses", U8_BYTES),
    SEQUENCE(KIND_SEQUENCE, "sequence", U64_BYTES),
    ROW_FLAGS(KIND_ROW_FLAGS, "row_flags", U8_BYTES),
    EMBED_SLOT(KIND_EMBED_SLOT, "embed_slot", U32_BYTES),
    COMMAND_REF(KIND_COMMAND_REF, "command_ref", U32_BYTES),
    OUTCOME_LATENCY(KIND_OUTCOME_LATENCY, "outcome_latency", U64_BYTES),
    OUTCOME_EXIT_CODE(KIND_OUTCOME_EXIT_CODE, "outcome_exit_code", U32_BYTES),
    EMBEDDINGS(KIND_EMBEDDINGS, "embeddings", 0),
    CSR(KIND_CSR, "csr", 0),
    CSC(KIND_CSC, "csc", 0),
    FOREIGN_IDS(KIND_FOREIGN_IDS, "foreign_ids", 0),
    STRING_TABLE(KIND_STRING_TABLE, "string_table", 0),
    BLOOM(KIND_BLOOM, "bloom", 0),
    INDEX(KIND_INDEX, "index", 0);

    private static final RegionKind[] BY_CODE = new RegionKind[KIND_INDEX + 1];

    static {
        for (RegionKind k : values()) {
            BY_CODE[k.code] = k;
        }
    }

    private final int code;
    private final String label;
    private final int columnWidth;

    RegionKind(int code, String label, int columnWidth) {
        this.code = code;
        this.label = label;
        this.columnWidth = columnWidth;
    }

    public int code() {
        return code;
    }

    public String label() {
        return label;
    }

    /** Bytes per row for a node column; 0 for the other regions. */
    public int columnWidth() {
        return columnWidth;
    }

    public boolean isNodeColumn() {
        return columnWidth > 0;
    }

    /** The kind with this code, or null if this reader does not know it. */
    public static RegionKind ofCode(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }

    /** "12 (embeddings)" for a known code, "99 (unknown)" otherwise: what error messages print. */
    public static String describe(int code) {
        RegionKind k = ofCode(code);
        return code + " (" + (k == null ? "unknown" : k.label) + ")";
    }
}
