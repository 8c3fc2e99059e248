package dev.tala.wal;

/**
 * Every constant of the WAL file format, in one place. The layout is described byte by byte in
 * docs/FORMAT.md ("Write-ahead log"); in short:
 *
 * <pre>
 * file   := file-header record*
 * file-header (16 bytes) := magic "TWAL" | u16 version | u8 flags | u8 flags (copy) | u64 file number
 *   flags bit 0 (ZERO_FILLED): the file was zero-filled before its first record (a reused
 *   file), so zeros from a record boundary to the end of the file are unused space. No
 *   checksum covers the header; the copy makes any one flipped flag bit a mismatch.
 * record := u32 payload_length | u8 type | u64 sequence | u32 crc | u32 header_crc | payload
 *   crc        = CRC32C over type, sequence and payload  (bytes 4..13 and the payload)
 *   header_crc = CRC32C over bytes 0..17 (length, type, sequence, crc)
 * </pre>
 *
 * The header CRC guards the length: a flipped length bit is reported as corruption instead of
 * being mistaken for a record that runs past the end of the file (a torn tail).
 */
public final class WalFormat {
    public static final byte[] MAGIC = {'T', 'W', 'A', 'L'};
    public static final short VERSION = 1;
    public static final int FILE_HEADER_BYTES = 16;
    static final int FLAGS_OFFSET = 6;
    static final int FLAGS_COPY_OFFSET = 7;
    static final int NUMBER_OFFSET = 8;
    /** Header flag: the file was all zeros beyond its header before its first record was written. */
    public static final byte FLAG_ZERO_FILLED = 1;
    static final byte KNOWN_FLAGS = FLAG_ZERO_FILLED;

    public static final int RECORD_HEADER_BYTES = 21;
    static final int LENGTH_OFFSET = 0;
    static final int TYPE_OFFSET = 4;
    static final int SEQUENCE_OFFSET = 5;
    static final int CRC_OFFSET = 13;
    static final int HEADER_CRC_OFFSET = 17;

    /** Largest payload a record may carry; bigger write batches are refused before logging. */
    public static final int MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

    public static final byte TYPE_PUT = 1;
    public static final byte TYPE_DELETE = 2;
    public static final byte TYPE_OUTCOME = 3;
    public static final byte TYPE_BATCH = 4;
    /** A batch record's payload starts with its op count, a u32. */
    public static final int BATCH_COUNT_BYTES = 4;

    private WalFormat() {
    }
}
