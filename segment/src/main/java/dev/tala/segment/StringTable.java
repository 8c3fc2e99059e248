package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The deduplicated command strings: u32 count C, (C+1) u32 offsets relative to the bytes area,
 * then the UTF-8 bytes. A view is validated once (offsets start at 0, never decrease, and end at
 * the end of the table), so a lookup only has to check its index.
 */
public final class StringTable {
    private final MemorySegment raw;
    private final long regionOffset;
    private final int count;
    private final long bytesAt;
    private final String file;

    private StringTable(MemorySegment raw, long regionOffset, int count, String file) {
        this.raw = raw;
        this.regionOffset = regionOffset;
        this.count = count;
        this.bytesAt = ST_OFFSETS + (count + 1L) * ST_OFFSET_BYTES;
        this.file = file;
    }

    /** Collects commands in first-seen order, giving equal strings the same index. */
    public static final class Builder {
        private final Map<String, Integer> index = new HashMap<>();
        private final List<byte[]> values = new ArrayList<>();
        private long bytes;

        public int add(String value) {
            Integer known = index.get(value);
            if (known != null) {
                return known;
            }
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            int i = values.size();
            index.put(value, i);
            values.add(utf8);
            bytes += utf8.length;
            return i;
        }

        public int count() {
            return values.size();
        }

        /** The uncompressed table. */
        public byte[] encode() {
            long length = ST_OFFSETS + (values.size() + 1L) * ST_OFFSET_BYTES + bytes;
            if (length > ST_MAX_TABLE_BYTES) {
                throw new IllegalArgumentException("the commands of one segment take " + length
                        + " bytes; a string table holds at most 2 GiB");
            }
            byte[] out = new byte[(int) length];
            MemorySegment s = MemorySegment.ofArray(out);
            s.set(U32, ST_COUNT, values.size());
            long offsetAt = ST_OFFSETS;
            int data = (int) (ST_OFFSETS + (values.size() + 1L) * ST_OFFSET_BYTES);
            int relative = 0;
            s.set(U32, offsetAt, 0);
            for (byte[] v : values) {
                System.arraycopy(v, 0, out, data + relative, v.length);
                relative += v.length;
                offsetAt += ST_OFFSET_BYTES;
                s.set(U32, offsetAt, relative);
            }
            return out;
        }
    }

    /** A table as stored in the file: its bytes, their encoding, and the raw length. */
    public record Stored(byte[] bytes, int encoding, long rawLength, int count) {
    }

    /** Applies the compression rule: zstd only above 64 bytes and only if it saves over 10%. */
    public static Stored store(byte[] raw, int count) {
        if (raw.length > ST_COMPRESS_MIN_BYTES) {
            byte[] compressed = Zstd.compress(raw, ST_ZSTD_LEVEL);
            if ((long) compressed.length * ST_COMPRESS_KEEP_DEN < (long) raw.length * ST_COMPRESS_KEEP_NUM) {
                return new Stored(compressed, ENCODING_ZSTD, raw.length, count);
            }
        }
        return new Stored(raw, ENCODING_RAW, raw.length, count);
    }

    /**
     * Checks the stored bytes of the string table region described by {@code entry}, decompresses
     * them if needed, and returns a validated view. A compressed table is allocated only at the
     * size its zstd frame declares, and only when that is its {@code raw_length} and plausible
     * for the rows: {@code putCount} commands of at most the command limit (tombstones store
     * no string) and the offsets of every row. A hostile file cannot make it allocate more,
     * and a frame that does not decompress is a CorruptionException like any other damage.
     */
    public static StringTable load(MemorySegment stored, RegionEntry entry, long nodeCount, long putCount, String file) {
        int crc = Crc32c.of(stored, 0, stored.byteSize());
        if (crc != entry.crc()) {
            throw new CorruptionException(file, entry.offset(), "string table checksum mismatch (stored "
                    + SegmentHeader.hex(entry.crc()) + ", computed " + SegmentHeader.hex(crc) + ")");
        }
        MemorySegment raw = stored;
        if (entry.encoding() == ENCODING_ZSTD) {
            long rawLength = entry.rawLength();
            long limit = Math.min(ST_MAX_TABLE_BYTES,
                    putCount * ST_MAX_STRING_BYTES + (long) ST_OFFSET_BYTES * (nodeCount + 2));
            if (rawLength < 0 || rawLength > limit || stored.byteSize() > ST_MAX_TABLE_BYTES) {
                throw new CorruptionException(file, entry.offset(), "string table raw_length "
                        + Long.toUnsignedString(rawLength) + " is not plausible for " + nodeCount + " rows, "
                        + putCount + " of them puts");
            }
            byte[] source = stored.toArray(ValueLayout.JAVA_BYTE);
            long declared = Zstd.getFrameContentSize(source);
            if (declared != rawLength) {
                throw new CorruptionException(file, entry.offset(), "string table's zstd frame declares "
                        + (declared < 0 ? "no content size" : declared + " bytes") + ", its raw_length "
                        + rawLength);
            }
            byte[] out = new byte[(int) rawLength];
            long n;
            try {
                n = Zstd.decompressByteArray(out, 0, out.length, source, 0, source.length);
            } catch (ZstdException e) {
                throw new CorruptionException(file, entry.offset(), "string table does not decompress ("
                        + e.getMessage() + ")", e);
            }
            if (Zstd.isError(n) || n != rawLength) {
                throw new CorruptionException(file, entry.offset(), "string table does not decompress to "
                        + rawLength + " bytes" + (Zstd.isError(n) ? " (" + Zstd.getErrorName(n) + ")" : " (got " + n + ")"));
            }
            raw = MemorySegment.ofArray(out);
        }
        StringTable table = view(raw, entry.offset(), file);
        if (table.count != entry.elementCount()) {
            throw new CorruptionException(file, entry.offset(), "string table holds " + table.count
                    + " strings but its element_count is " + Long.toUnsignedString(entry.elementCount()));
        }
        return table;
    }

    /** Validates the uncompressed table {@code raw}; {@code regionOffset} locates it for messages. */
    public static StringTable view(MemorySegment raw, long regionOffset, String file) {
        long size = raw.byteSize();
        if (size < ST_OFFSETS + ST_OFFSET_BYTES) {
            throw new CorruptionException(file, regionOffset, "string table is " + size + " bytes, too short");
        }
        long count = Integer.toUnsignedLong(raw.get(U32, ST_COUNT));
        long bytesAt = ST_OFFSETS + (count + 1) * ST_OFFSET_BYTES;
        if (bytesAt > size || count > Integer.MAX_VALUE - 8) {
            throw new CorruptionException(file, regionOffset, "string table count " + count
                    + " does not fit its " + size + " bytes");
        }
        long previous = 0;
        for (long i = 0; i <= count; i++) {
            long o = Integer.toUnsignedLong(raw.get(U32, ST_OFFSETS + i * ST_OFFSET_BYTES));
            boolean ok = i == 0 ? o == 0 : o >= previous && o - previous <= ST_MAX_STRING_BYTES;
            if (!ok || bytesAt + o > size) {
                throw new CorruptionException(file, regionOffset, "string table offset " + i + " (" + o
                        + ") is out of order, beyond the table, or makes a string longer than "
                        + ST_MAX_STRING_BYTES + " bytes");
            }
            previous = o;
        }
        if (bytesAt + previous != size) {
            throw new CorruptionException(file, regionOffset, "string table bytes end at " + (bytesAt + previous)
                    + " but the table is " + size + " bytes");
        }
        return new StringTable(raw, regionOffset, (int) count, file);
    }

    public int count() {
        return count;
    }

    /** String {@code i}; the caller has checked {@code 0 <= i < count()}. */
    public String get(int i) {
        return new String(bytes(i), StandardCharsets.UTF_8);
    }

    /** String {@code i}, refusing bytes that are not well-formed UTF-8. */
    public String getStrict(int i) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes(i))).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptionException(file, regionOffset, "string table entry " + i + " is not valid UTF-8");
        }
    }

    private byte[] bytes(int i) {
        long from = Integer.toUnsignedLong(raw.get(U32, ST_OFFSETS + (long) i * ST_OFFSET_BYTES));
        long to = Integer.toUnsignedLong(raw.get(U32, ST_OFFSETS + (i + 1L) * ST_OFFSET_BYTES));
        return raw.asSlice(bytesAt + from, to - from).toArray(ValueLayout.JAVA_BYTE);
    }
}
