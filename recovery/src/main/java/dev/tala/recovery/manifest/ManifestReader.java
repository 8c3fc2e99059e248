package dev.tala.recovery.manifest;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.checksum.ResyncBudget;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Replays a MANIFEST into a {@link ManifestState}. A torn last edit (one a crash cut short) is
 * ignored and reported; a damaged edit followed by an intact one is corruption, reported with
 * the file and offset, because ignoring it would forget live segments.
 */
public final class ManifestReader {
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

    public static Result read(FileLayer fs, Path file) throws IOException {
        byte[] bytes = fs.readAllBytes(file);
        String name = file.toString();
        if (bytes.length < ManifestFormat.FILE_HEADER_BYTES
                || !Arrays.equals(Arrays.copyOf(bytes, 4), ManifestFormat.MAGIC)) {
            throw new CorruptionException(name, 0, bytes.length < ManifestFormat.FILE_HEADER_BYTES
                    ? "file header incomplete (" + bytes.length + " bytes)" : "bad magic: not a TalaDB MANIFEST");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        short version = in.getShort(4);
        if (version != ManifestFormat.VERSION) {
            throw new CorruptionException(name, 4, "unsupported MANIFEST version " + version);
        }
        short reserved = in.getShort(6);
        if (reserved != 0) {
            // No checksum covers the header, so every field is checked by value.
            throw new CorruptionException(name, 6, "reserved header field is " + reserved + ", not 0");
        }
        ManifestState state = ManifestState.EMPTY;
        int edits = 0;
        int offset = ManifestFormat.FILE_HEADER_BYTES;
        while (offset < bytes.length) {
            String problem = problemAt(in, offset);
            if (problem != null) {
                int next = nextIntactEditAfter(in, offset);
                if (next == -1) {
                    return new Result(state, edits, offset, bytes.length - offset);
                }
                throw new CorruptionException(name, offset, problem + (next == UNDECIDED
                        ? " (not taken for a torn tail: too many edit headers after it pass their checksum to"
                                + " search them all for an intact edit)"
                        : " (an intact edit follows, so this is not a torn tail)"));
            }
            int length = in.getInt(offset);
            ByteBuffer payload = in.slice(offset + ManifestFormat.EDIT_HEADER_BYTES, length);
            try {
                state = state.apply(ManifestCodec.decode(payload));
            } catch (ManifestCodec.MalformedEditException e) {
                throw new CorruptionException(name, offset + ManifestFormat.EDIT_HEADER_BYTES + e.offset, e.getMessage());
            }
            edits++;
            offset += ManifestFormat.EDIT_HEADER_BYTES + length;
        }
        return new Result(state, edits, offset, 0);
    }

    /** Null when an intact edit starts at {@code offset}, else what is wrong with it. */
    private static String problemAt(ByteBuffer in, int offset) {
        int size = in.limit();
        if (size - offset < ManifestFormat.EDIT_HEADER_BYTES) {
            return "incomplete edit header";
        }
        if (in.getInt(offset + 8) != Crc32c.of(in.array(), offset, 8)) {
            return "edit header checksum mismatch";
        }
        int length = in.getInt(offset);
        if (length < 0 || length > ManifestFormat.MAX_EDIT_BYTES) {
            return "impossible edit length " + Integer.toUnsignedString(length);
        }
        if (length > size - offset - ManifestFormat.EDIT_HEADER_BYTES) {
            return "edit of " + length + " bytes runs past the end of the file";
        }
        if (in.getInt(offset + 4) != Crc32c.of(in.array(), offset + ManifestFormat.EDIT_HEADER_BYTES, length)) {
            return "edit checksum mismatch";
        }
        return null;
    }

    /** What {@link #nextIntactEditAfter} returns when it gave up before it could tell. */
    private static final int UNDECIDED = -2;

    /**
     * The offset of the first intact edit after {@code offset}, -1 when there is none, or
     * {@link #UNDECIDED}, when the {@link ResyncBudget} is spent (a file built so that edit
     * headers pass their own checksum everywhere).
     */
    private static int nextIntactEditAfter(ByteBuffer in, int offset) {
        ResyncBudget budget = new ResyncBudget(in.limit());
        for (int at = offset + 1; at + ManifestFormat.EDIT_HEADER_BYTES <= in.limit(); at++) {
            if (in.getInt(at + 8) == Crc32c.of(in.array(), at, 8)) {
                if (!budget.charge(Integer.toUnsignedLong(in.getInt(at)),
                        in.limit() - at - ManifestFormat.EDIT_HEADER_BYTES, ManifestFormat.MAX_EDIT_BYTES)) {
                    return UNDECIDED;
                }
                if (problemAt(in, at) == null) {
                    return at;
                }
            }
        }
        return -1;
    }
}
