package dev.tala.recovery.manifest;

/**
 * Every constant of the MANIFEST format (docs/FORMAT.md, "MANIFEST"):
 * <pre>
 * file   := magic "TMAN" | u16 version | u16 reserved | edit*
 * edit   := u32 payload_length | u32 crc (CRC32C of the payload) | u32 header_crc (of the 8 bytes before) | payload
 * payload:= field*         field := u8 tag | u16 length | value (length bytes)
 * </pre>
 * Tags a reader does not know are skipped by their length, so later versions can add fields.
 */
final class ManifestFormat {
    static final byte[] MAGIC = {'T', 'M', 'A', 'N'};
    static final short VERSION = 1;
    static final int FILE_HEADER_BYTES = 8;
    static final int EDIT_HEADER_BYTES = 12;
    static final int MAX_EDIT_BYTES = 64 * 1024 * 1024;
    /** A field's tag (u8) and value length (u16) before its value. */
    static final int FIELD_HEADER_BYTES = 3;

    static final byte TAG_LOG_NUMBER = 1;
    static final byte TAG_NEXT_FILE_NUMBER = 2;
    static final byte TAG_LAST_SEQUENCE = 3;
    static final byte TAG_ADD_SEGMENT = 4;
    static final byte TAG_REMOVE_SEGMENT = 5;
    static final byte TAG_OBSOLETE_SEGMENT = 6;

    /** id, level, file size, rows, min/max timestamp, min/max sequence, compacted: the first version's entry. */
    static final int ADD_SEGMENT_V1_BYTES = 8 + 1 + 8 + 8 + 8 + 8 + 8 + 8 + 1;
    /** The first version's entry and then tombstones (u64), as written now. */
    static final int ADD_SEGMENT_BYTES = ADD_SEGMENT_V1_BYTES + 8;

    private ManifestFormat() {
    }
}
