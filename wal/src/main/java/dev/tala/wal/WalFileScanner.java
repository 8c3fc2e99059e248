package dev.tala.wal;

import static dev.tala.wal.WalRecordCodec.INT;
import static dev.tala.wal.WalRecordCodec.LONG;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.checksum.ResyncBudget;
import dev.tala.core.checksum.ZeroRuns;
import dev.tala.core.io.FileLayer;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads one WAL file's bytes as a sequence of steps: an intact record, a damaged one, or the
 * end. It judges each record on its own; whether damage is a torn tail or corruption is the
 * replayer's call, which asks {@link #nextIntactRecordAfter} to decide.
 */
final class WalFileScanner {
    /** One step of the scan. */
    sealed interface Step {
    }

    /** An intact record occupying [offset, end). */
    record Intact(long offset, long end, WalRecord record) implements Step {
    }

    /** Bytes at {@code offset} that are not an intact record; {@code what} says why. */
    record Damaged(long offset, String what) implements Step {
    }

    /**
     * The records end at {@code offset}: the file ends there, or (in a file flagged ZERO_FILLED)
     * nothing but zeros follows.
     */
    record End(long offset) implements Step {
    }

    private final MemorySegment file;
    /** From the file header (see {@link #checkFileHeader}). */
    private boolean zeroFilled;
    /** The offset of the file's last non-zero byte (-1 if none), computed when first needed. */
    private long lastNonZero = Long.MIN_VALUE;

    /**
     * One for every search in this file, not one per search: a skip-corrupted replay searches
     * once per damaged record, and a file with many damaged records, each with headers that
     * pass their checksum after it, made the searches together quadratic in the file's size
     * while each stayed within its own cap. An honest file's searches charge at most its
     * records' lengths, which the budget exceeds fourfold.
     */
    private final ResyncBudget budget;

    WalFileScanner(MemorySegment file) {
        this.file = file;
        this.budget = new ResyncBudget(file.byteSize());
    }

    long size() {
        return file.byteSize();
    }

    /**
     * Where the file's written bytes end: its size, or for a ZERO_FILLED file just past its last
     * non-zero byte (the zeros after it are unused space, not dropped data).
     */
    long dataEnd() {
        return zeroFilled ? lastNonZero() + 1 : file.byteSize();
    }

    /** Checks the file header; returns null when it is intact, else what is wrong. */
    String checkFileHeader(long expectedFileNumber) {
        if (file.byteSize() < WalFormat.FILE_HEADER_BYTES) {
            return "file header incomplete (" + file.byteSize() + " of " + WalFormat.FILE_HEADER_BYTES + " bytes)";
        }
        for (int i = 0; i < WalFormat.MAGIC.length; i++) {
            if (file.get(ValueLayout.JAVA_BYTE, i) != WalFormat.MAGIC[i]) {
                return "bad magic: not a TalaDB WAL file";
            }
        }
        short version = file.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 4);
        if (version != WalFormat.VERSION) {
            return "unsupported WAL version " + version;
        }
        // No checksum covers the file header, so every field is checked by value.
        int flags = file.get(ValueLayout.JAVA_BYTE, WalFormat.FLAGS_OFFSET) & 0xff;
        int copy = file.get(ValueLayout.JAVA_BYTE, WalFormat.FLAGS_COPY_OFFSET) & 0xff;
        if (flags != copy) {
            return "header flags 0x" + Integer.toHexString(flags) + " and their copy 0x" + Integer.toHexString(copy)
                    + " differ";
        }
        if ((flags & ~WalFormat.KNOWN_FLAGS) != 0) {
            return "unknown header flags 0x" + Integer.toHexString(flags);
        }
        long number = file.get(LONG, WalFormat.NUMBER_OFFSET);
        if (number != expectedFileNumber) {
            return "file header names WAL file " + number + " but the file is named " + expectedFileNumber;
        }
        zeroFilled = (flags & WalFormat.FLAG_ZERO_FILLED) != 0;
        return null;
    }

    /** The step starting at {@code offset}. */
    Step stepAt(long offset) {
        long size = file.byteSize();
        if (offset == size || zeroFilled && offset > lastNonZero()) {
            return new End(offset);
        }
        if (size - offset < WalFormat.RECORD_HEADER_BYTES) {
            return new Damaged(offset, "incomplete record header (" + (size - offset) + " bytes before the end of the file)");
        }
        int storedHeaderCrc = file.get(INT, offset + WalFormat.HEADER_CRC_OFFSET);
        if (storedHeaderCrc != Crc32c.of(file, offset, WalFormat.HEADER_CRC_OFFSET)) {
            return new Damaged(offset, isZero(offset, WalFormat.RECORD_HEADER_BYTES)
                    ? "zero-filled bytes where a record header should be" : "record header checksum mismatch");
        }
        long length = Integer.toUnsignedLong(file.get(INT, offset + WalFormat.LENGTH_OFFSET));
        if (length > WalFormat.MAX_PAYLOAD_BYTES) {
            return new Damaged(offset, "record length " + length + " exceeds the limit " + WalFormat.MAX_PAYLOAD_BYTES);
        }
        long payloadStart = offset + WalFormat.RECORD_HEADER_BYTES;
        if (length > size - payloadStart) {
            return new Damaged(offset, "record of " + length + " bytes runs past the end of the file ("
                    + (size - payloadStart) + " bytes left)");
        }
        if (file.get(INT, offset + WalFormat.CRC_OFFSET) != payloadCrc(offset, length)) {
            return new Damaged(offset, "record checksum mismatch");
        }
        byte type = file.get(ValueLayout.JAVA_BYTE, offset + WalFormat.TYPE_OFFSET);
        long sequence = file.get(LONG, offset + WalFormat.SEQUENCE_OFFSET);
        try {
            List<WalOp> ops = WalRecordCodec.decodePayload(type, file.asSlice(payloadStart, length));
            if (sequence < 0 || sequence > Long.MAX_VALUE - ops.size()) {
                return new Damaged(offset, "impossible sequence number " + Long.toUnsignedString(sequence));
            }
            return new Intact(offset, payloadStart + length, new WalRecord(sequence, ops));
        } catch (WalRecordCodec.MalformedPayloadException e) {
            return new Damaged(payloadStart + e.offset, e.getMessage());
        }
    }

    /** What {@link #nextIntactRecordAfter} returns when it gave up before it could tell. */
    static final long UNDECIDED = -2;

    /**
     * The offset of the first intact record that starts after {@code offset}, -1 when there is
     * none, or {@link #UNDECIDED}. Used to tell a torn tail (nothing intact follows) from
     * corruption in the middle, and to resume after a skipped record. Cheap checks first: the
     * header checksum rejects almost every offset before the payload is looked at; a
     * {@link ResyncBudget}, shared by this file's searches, caps the payloads checked, for a file
     * built to pass it everywhere.
     */
    long nextIntactRecordAfter(long offset) {
        // A record's header checksum is never zero over zero bytes, so no record starts past the
        // last non-zero byte: a long zero-filled tail is not searched byte by byte.
        long last = Math.min(file.byteSize() - WalFormat.RECORD_HEADER_BYTES, lastNonZero());
        for (long at = offset + 1; at <= last; at++) {
            at = ZeroRuns.firstNonZeroWindow(file, at, WalFormat.RECORD_HEADER_BYTES);
            if (at > last) {
                break;
            }
            if (file.get(INT, at + WalFormat.HEADER_CRC_OFFSET) == Crc32c.of(file, at, WalFormat.HEADER_CRC_OFFSET)) {
                if (!budget.charge(Integer.toUnsignedLong(file.get(INT, at + WalFormat.LENGTH_OFFSET)),
                        file.byteSize() - at - WalFormat.RECORD_HEADER_BYTES, WalFormat.MAX_PAYLOAD_BYTES)) {
                    return UNDECIDED;
                }
                if (stepAt(at) instanceof Intact) {
                    return at;
                }
            }
        }
        return -1;
    }

    /**
     * True when the damaged record at {@code from}, with the next intact record at {@code next},
     * was damaged by writes the crash lost out of order rather than by a changed bit: part of it
     * lies in a sector that reads as zeros from {@code from} (or the sector's start) to the
     * sector's end, and that sector ends before {@code next}.
     *
     * <p>Why that is what a lost write leaves: a force covers whole records, so the last durable
     * byte is at or before {@code from}; a sector that did not reach the disk reads as it was
     * before, zeros, since a WAL file's space is new, preallocated, or zero-filled before reuse;
     * and no intact record can start inside such a sector. The zeros must cover the part of the
     * record that fails its checksum: the header when the header's checksum fails, else the
     * payload. A flipped bit leaves no whole zero sector there, unless the record itself holds
     * at least a sector of aligned zeros, which is why the whole sector is required.
     */
    boolean looksLikeLostWrites(long from, long to) {
        long size = file.byteSize();
        long failingFrom;
        long failingTo;
        if (size - from >= WalFormat.RECORD_HEADER_BYTES
                && file.get(INT, from + WalFormat.HEADER_CRC_OFFSET) == Crc32c.of(file, from, WalFormat.HEADER_CRC_OFFSET)) {
            long length = Integer.toUnsignedLong(file.get(INT, from + WalFormat.LENGTH_OFFSET));
            failingFrom = from + WalFormat.RECORD_HEADER_BYTES;
            failingTo = failingFrom + length;
            if (length > WalFormat.MAX_PAYLOAD_BYTES || failingTo > size
                    || file.get(INT, from + WalFormat.CRC_OFFSET) == payloadCrc(from, length)) {
                return false; // not a checksum failure: the bytes are as written
            }
        } else {
            failingFrom = from;
            failingTo = Math.min(size, from + WalFormat.RECORD_HEADER_BYTES);
        }
        int sector = FileLayer.SECTOR_BYTES;
        for (long start = from / sector * sector; start + sector <= to && start < failingTo; start += sector) {
            long zerosFrom = Math.max(start, from);
            long end = start + sector;
            if (end > failingFrom && isZero(zerosFrom, end - zerosFrom)) {
                return true;
            }
        }
        return false;
    }

    private int payloadCrc(long offset, long length) {
        CRC32C crc = new CRC32C();
        crc.update(file.asSlice(offset + WalFormat.TYPE_OFFSET, 9).asByteBuffer());
        crc.update(file.asSlice(offset + WalFormat.RECORD_HEADER_BYTES, length).asByteBuffer());
        return (int) crc.getValue();
    }

    private long lastNonZero() {
        if (lastNonZero == Long.MIN_VALUE) {
            lastNonZero = ZeroRuns.lastNonZero(file);
        }
        return lastNonZero;
    }

    private boolean isZero(long offset, long length) {
        for (long i = 0; i < length; i++) {
            if (file.get(ValueLayout.JAVA_BYTE, offset + i) != 0) {
                return false;
            }
        }
        return true;
    }
}
