package dev.tala.recovery.manifest;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.checksum.ResyncBudget;
import dev.tala.core.checksum.ZeroRuns;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.MappedRegion;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * Replays a MANIFEST into a {@link ManifestState}. A torn last edit (one a crash cut short) is
 * ignored and reported; a damaged edit followed by an intact one is corruption, reported with
 * the file and offset, because ignoring it would forget live segments.
 */
public final class ManifestReader {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ManifestReader() {
    }

    /**
     * @param state         the live files and counters
     * @param edits         intact edits applied
     * @param validEnd      where the last intact edit ends
     * @param tornTailBytes bytes after {@code validEnd} that were ignored
     */
    public record Result(ManifestState state, int edits, long validEnd, long tornTailBytes) {
    }

    /**
     * Reads {@code file} through a mapping, not onto the heap: a MANIFEST is small, but a
     * damaged or hostile one may be a sparse file of gigabytes, which a whole-file read ran the
     * JVM out of memory on.
     */
    public static Result read(FileLayer fs, Path file) throws IOException {
        try (MappedRegion region = fs.map(file)) {
            return read(region.segment(), file.toString());
        }
    }

    private static Result read(MemorySegment bytes, String name) {
        long size = bytes.byteSize();
        if (size < ManifestFormat.FILE_HEADER_BYTES || MemorySegment.mismatch(bytes, 0, ManifestFormat.MAGIC.length,
                MemorySegment.ofArray(ManifestFormat.MAGIC), 0, ManifestFormat.MAGIC.length) >= 0) {
            throw new CorruptionException(name, 0, size < ManifestFormat.FILE_HEADER_BYTES
                    ? "file header incomplete (" + size + " bytes)" : "bad magic: not a TalaDB MANIFEST");
        }
        short version = bytes.get(SHORT, 4);
        if (version != ManifestFormat.VERSION) {
            throw new CorruptionException(name, 4, "unsupported MANIFEST version " + version);
        }
        short reserved = bytes.get(SHORT, 6);
        if (reserved != 0) {
            // No checksum covers the header, so every field is checked by value.
            throw new CorruptionException(name, 6, "reserved header field is " + reserved + ", not 0");
        }
        ManifestState state = ManifestState.EMPTY;
        int edits = 0;
        long offset = ManifestFormat.FILE_HEADER_BYTES;
        while (offset < size) {
            String problem = problemAt(bytes, offset);
            if (problem != null) {
                long next = nextIntactEditAfter(bytes, offset);
                if (next == -1) {
                    return new Result(state, edits, offset, size - offset);
                }
                throw new CorruptionException(name, offset, problem + (next == UNDECIDED
                        ? " (not taken for a torn tail: too many edit headers after it pass their checksum to"
                                + " search them all for an intact edit)"
                        : " (an intact edit follows, so this is not a torn tail)"));
            }
            int length = bytes.get(INT, offset);
            try {
                state = state.apply(ManifestCodec.decode(bytes.asSlice(offset + ManifestFormat.EDIT_HEADER_BYTES, length)));
            } catch (ManifestCodec.MalformedEditException e) {
                throw new CorruptionException(name, offset + ManifestFormat.EDIT_HEADER_BYTES + e.offset, e.getMessage());
            }
            edits++;
            offset += ManifestFormat.EDIT_HEADER_BYTES + length;
        }
        return new Result(state, edits, offset, 0);
    }

    /** Null when an intact edit starts at {@code offset}, else what is wrong with it. */
    private static String problemAt(MemorySegment bytes, long offset) {
        long size = bytes.byteSize();
        if (size - offset < ManifestFormat.EDIT_HEADER_BYTES) {
            return "incomplete edit header";
        }
        if (bytes.get(INT, offset + 8) != Crc32c.of(bytes, offset, 8)) {
            return "edit header checksum mismatch";
        }
        int length = bytes.get(INT, offset);
        if (length < 0 || length > ManifestFormat.MAX_EDIT_BYTES) {
            return "impossible edit length " + Integer.toUnsignedString(length);
        }
        if (length > size - offset - ManifestFormat.EDIT_HEADER_BYTES) {
            return "edit of " + length + " bytes runs past the end of the file";
        }
        if (bytes.get(INT, offset + 4) != Crc32c.of(bytes, offset + ManifestFormat.EDIT_HEADER_BYTES, length)) {
            return "edit checksum mismatch";
        }
        return null;
    }

    /** What {@link #nextIntactEditAfter} returns when it gave up before it could tell. */
    private static final long UNDECIDED = -2;

    /**
     * The offset of the first intact edit after {@code offset}, -1 when there is none, or
     * {@link #UNDECIDED}, when the {@link ResyncBudget} is spent (a file built so that edit
     * headers pass their own checksum everywhere). Runs of zeros are stepped over
     * ({@link ZeroRuns}).
     */
    private static long nextIntactEditAfter(MemorySegment bytes, long offset) {
        long size = bytes.byteSize();
        ResyncBudget budget = new ResyncBudget(size);
        for (long at = offset + 1; at + ManifestFormat.EDIT_HEADER_BYTES <= size; at++) {
            at = ZeroRuns.firstNonZeroWindow(bytes, at, ManifestFormat.EDIT_HEADER_BYTES);
            if (at + ManifestFormat.EDIT_HEADER_BYTES > size) {
                break;
            }
            if (bytes.get(INT, at + 8) == Crc32c.of(bytes, at, 8)) {
                if (!budget.charge(Integer.toUnsignedLong(bytes.get(INT, at)),
                        size - at - ManifestFormat.EDIT_HEADER_BYTES, ManifestFormat.MAX_EDIT_BYTES)) {
                    return UNDECIDED;
                }
                if (problemAt(bytes, at) == null) {
                    return at;
                }
            }
        }
        return -1;
    }
}
