package dev.tala.recovery.manifest;

import dev.tala.segment.SegmentMeta;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** Encodes an edit's fields as tag-length-value and decodes them back. */
final class ManifestCodec {
    private ManifestCodec() {
    }

    static byte[] encode(ManifestEdit edit) {
        int size = 3 * (3 + 8) + edit.added().size() * (3 + ManifestFormat.ADD_SEGMENT_BYTES)
                + (edit.removed().size() + edit.obsolete().size()) * (3 + 8);
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        putLong(out, ManifestFormat.TAG_LOG_NUMBER, edit.logNumber());
        putLong(out, ManifestFormat.TAG_NEXT_FILE_NUMBER, edit.nextFileNumber());
        putLong(out, ManifestFormat.TAG_LAST_SEQUENCE, edit.lastSequence());
        for (SegmentMeta s : edit.added()) {
            out.put(ManifestFormat.TAG_ADD_SEGMENT).putShort((short) ManifestFormat.ADD_SEGMENT_BYTES);
            out.putLong(s.id()).put((byte) s.level()).putLong(s.fileSize()).putLong(s.rows())
                    .putLong(s.minTimestamp()).putLong(s.maxTimestamp())
                    .putLong(s.minSequence()).putLong(s.maxSequence())
                    .put((byte) (s.compacted() ? 1 : 0)).putLong(s.tombstones());
        }
        for (long id : edit.removed()) {
            out.put(ManifestFormat.TAG_REMOVE_SEGMENT).putShort((short) 8).putLong(id);
        }
        for (long id : edit.obsolete()) {
            out.put(ManifestFormat.TAG_OBSOLETE_SEGMENT).putShort((short) 8).putLong(id);
        }
        byte[] bytes = new byte[out.position()];
        out.flip().get(bytes);
        return bytes;
    }

    private static void putLong(ByteBuffer out, byte tag, OptionalLong value) {
        if (value.isPresent()) {
            out.put(tag).putShort((short) 8).putLong(value.getAsLong());
        }
    }

    /** Raised for a payload that passed its checksum but does not parse. */
    static final class MalformedEditException extends Exception {
        final int offset;

        MalformedEditException(int offset, String what) {
            super(what);
            this.offset = offset;
        }
    }

    static ManifestEdit decode(ByteBuffer payload) throws MalformedEditException {
        ByteBuffer in = payload.slice().order(ByteOrder.LITTLE_ENDIAN);
        ManifestEdit.Builder b = ManifestEdit.builder();
        List<SegmentMeta> added = new ArrayList<>();
        while (in.hasRemaining()) {
            int at = in.position();
            try {
                byte tag = in.get();
                int length = Short.toUnsignedInt(in.getShort());
                if (length > in.remaining()) {
                    throw new MalformedEditException(at, "field " + tag + " of " + length + " bytes runs past the edit");
                }
                ByteBuffer value = in.slice(in.position(), length).order(ByteOrder.LITTLE_ENDIAN);
                in.position(in.position() + length);
                switch (tag) {
                    case ManifestFormat.TAG_LOG_NUMBER -> b.logNumber(fixedLong(value, at));
                    case ManifestFormat.TAG_NEXT_FILE_NUMBER -> b.nextFileNumber(fixedLong(value, at));
                    case ManifestFormat.TAG_LAST_SEQUENCE -> b.lastSequence(fixedLong(value, at));
                    case ManifestFormat.TAG_REMOVE_SEGMENT -> b.remove(fixedLong(value, at));
                    case ManifestFormat.TAG_OBSOLETE_SEGMENT -> b.obsolete(fixedLong(value, at));
                    case ManifestFormat.TAG_ADD_SEGMENT -> {
                        if (length < ManifestFormat.ADD_SEGMENT_V1_BYTES) {
                            throw new MalformedEditException(at, "segment entry of " + length + " bytes is too short");
                        }
                        if (length > ManifestFormat.ADD_SEGMENT_V1_BYTES && length < ManifestFormat.ADD_SEGMENT_BYTES) {
                            throw new MalformedEditException(at, "segment entry of " + length
                                    + " bytes ends inside its tombstone count");
                        }
                        b.add(segmentEntry(value, at));
                    }
                    default -> {
                        // A field from a newer version: skipped by its length.
                    }
                }
            } catch (BufferUnderflowException e) {
                throw new MalformedEditException(at, "field header runs past the edit");
            }
        }
        return b.build();
    }

    /** An add_segment value; one of the first version (without tombstones) reads as having none. */
    private static SegmentMeta segmentEntry(ByteBuffer value, int at) throws MalformedEditException {
        long id = value.getLong();
        int level = Byte.toUnsignedInt(value.get());
        long fileSize = value.getLong();
        long rows = value.getLong();
        long minTimestamp = value.getLong();
        long maxTimestamp = value.getLong();
        long minSequence = value.getLong();
        long maxSequence = value.getLong();
        boolean compacted = value.get() != 0;
        long tombstones = value.hasRemaining() ? value.getLong() : 0;
        try {
            return new SegmentMeta(id, level, fileSize, rows, tombstones, minTimestamp, maxTimestamp, minSequence,
                    maxSequence, compacted);
        } catch (IllegalArgumentException e) {
            throw new MalformedEditException(at, e.getMessage());
        }
    }

    private static long fixedLong(ByteBuffer value, int at) throws MalformedEditException {
        if (value.remaining() != 8) {
            throw new MalformedEditException(at, "expected an 8-byte value, found " + value.remaining() + " bytes");
        }
        long v = value.getLong();
        if (v < 0) {
            throw new MalformedEditException(at, "negative counter " + v);
        }
        return v;
    }
}
