package dev.tala.recovery.manifest;

import dev.tala.segment.SegmentMeta;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.OptionalLong;

/** Encodes an edit's fields as tag-length-value and decodes them back. */
final class ManifestCodec {
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ManifestCodec() {
    }

    static byte[] encode(ManifestEdit edit) {
        int counter = ManifestFormat.FIELD_HEADER_BYTES + 8;
        int size = 3 * counter
                + edit.added().size() * (ManifestFormat.FIELD_HEADER_BYTES + ManifestFormat.ADD_SEGMENT_BYTES)
                + (edit.removed().size() + edit.obsolete().size()) * counter;
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

    /**
     * Decodes an edit's payload, reading each field at its offset: no buffer view is made per
     * edit or field. The loop over ByteBuffer views this replaces failed now and then in the
     * power-loss sweeps (Temurin 25.0.3) with a NullPointerException on the view it had just
     * made, a local that cannot be null, while the same bytes decoded cleanly on a retry in the
     * same JVM: a fault below Java, it seems, which this form has not met (docs/TESTING.md).
     */
    static ManifestEdit decode(MemorySegment payload) throws MalformedEditException {
        ManifestEdit.Builder b = ManifestEdit.builder();
        long size = payload.byteSize();
        int at = 0;
        while (at < size) {
            if (size - at < ManifestFormat.FIELD_HEADER_BYTES) {
                throw new MalformedEditException(at, "field header runs past the edit");
            }
            byte tag = payload.get(ValueLayout.JAVA_BYTE, at);
            int length = Short.toUnsignedInt(payload.get(SHORT, at + 1));
            int value = at + ManifestFormat.FIELD_HEADER_BYTES;
            if (length > size - value) {
                throw new MalformedEditException(at, "field " + tag + " of " + length + " bytes runs past the edit");
            }
            switch (tag) {
                case ManifestFormat.TAG_LOG_NUMBER -> b.logNumber(fixedLong(payload, value, length, at));
                case ManifestFormat.TAG_NEXT_FILE_NUMBER -> b.nextFileNumber(fixedLong(payload, value, length, at));
                case ManifestFormat.TAG_LAST_SEQUENCE -> b.lastSequence(fixedLong(payload, value, length, at));
                case ManifestFormat.TAG_REMOVE_SEGMENT -> b.remove(fixedLong(payload, value, length, at));
                case ManifestFormat.TAG_OBSOLETE_SEGMENT -> b.obsolete(fixedLong(payload, value, length, at));
                case ManifestFormat.TAG_ADD_SEGMENT -> {
                    if (length < ManifestFormat.ADD_SEGMENT_V1_BYTES) {
                        throw new MalformedEditException(at, "segment entry of " + length + " bytes is too short");
                    }
                    if (length > ManifestFormat.ADD_SEGMENT_V1_BYTES && length < ManifestFormat.ADD_SEGMENT_BYTES) {
                        throw new MalformedEditException(at, "segment entry of " + length
                                + " bytes ends inside its tombstone count");
                    }
                    b.add(segmentEntry(payload, value, length, at));
                }
                default -> {
                    // A field from a newer version: skipped by its length.
                }
            }
            at = value + length;
        }
        return b.build();
    }

    /**
     * The add_segment value of {@code length} bytes at {@code value}; one of the first version
     * (without tombstones) reads as having none, and bytes past the tombstone count are ignored.
     */
    private static SegmentMeta segmentEntry(MemorySegment payload, int value, int length, int at)
            throws MalformedEditException {
        long id = payload.get(LONG, value);
        int level = Byte.toUnsignedInt(payload.get(ValueLayout.JAVA_BYTE, value + 8));
        long fileSize = payload.get(LONG, value + 9);
        long rows = payload.get(LONG, value + 17);
        long minTimestamp = payload.get(LONG, value + 25);
        long maxTimestamp = payload.get(LONG, value + 33);
        long minSequence = payload.get(LONG, value + 41);
        long maxSequence = payload.get(LONG, value + 49);
        boolean compacted = payload.get(ValueLayout.JAVA_BYTE, value + 57) != 0;
        long tombstones = length >= ManifestFormat.ADD_SEGMENT_BYTES
                ? payload.get(LONG, value + ManifestFormat.ADD_SEGMENT_V1_BYTES) : 0;
        try {
            return new SegmentMeta(id, level, fileSize, rows, tombstones, minTimestamp, maxTimestamp, minSequence,
                    maxSequence, compacted);
        } catch (IllegalArgumentException e) {
            throw new MalformedEditException(at, e.getMessage());
        }
    }

    private static long fixedLong(MemorySegment payload, int value, int length, int at) throws MalformedEditException {
        if (length != 8) {
            throw new MalformedEditException(at, "expected an 8-byte value, found " + length + " bytes");
        }
        long v = payload.get(LONG, value);
        if (v < 0) {
            throw new MalformedEditException(at, "negative counter " + v);
        }
        return v;
    }
}
