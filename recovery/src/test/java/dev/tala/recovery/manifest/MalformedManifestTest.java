package dev.tala.recovery.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.segment.SegmentMeta;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MANIFEST files that a crash cannot produce but damage or a hand edit can: each is refused as
 * corruption naming the offset of what is wrong (never an exception of another kind), or, at the
 * very end, taken for a torn tail. Built byte by byte as docs/FORMAT.md describes them. Each test
 * kills a mutation of the reader or the codec that the other tests let survive.
 */
class MalformedManifestTest {
    private static final int FIRST_EDIT = ManifestFormat.FILE_HEADER_BYTES;
    private static final int FIRST_PAYLOAD = FIRST_EDIT + ManifestFormat.EDIT_HEADER_BYTES;

    @TempDir
    Path dir;

    private static byte[] fileHeader(int version, int reserved) {
        return ByteBuffer.allocate(ManifestFormat.FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN)
                .put(ManifestFormat.MAGIC).putShort((short) version).putShort((short) reserved).array();
    }

    /** An edit header claiming {@code length} bytes with payload checksum {@code crc}; its own checksum matches. */
    private static byte[] editHeader(int length, int crc) {
        ByteBuffer h = ByteBuffer.allocate(ManifestFormat.EDIT_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(length).putInt(crc);
        h.putInt(Crc32c.of(h.array(), 0, 8));
        return h.array();
    }

    private static byte[] edit(byte[] payload) {
        return concat(editHeader(payload.length, Crc32c.of(payload, 0, payload.length)), payload);
    }

    /** One field: u8 tag, u16 length, then {@code value}. */
    private static byte[] field(int tag, byte[] value) {
        return ByteBuffer.allocate(3 + value.length).order(ByteOrder.LITTLE_ENDIAN).put((byte) tag)
                .putShort((short) value.length).put(value).array();
    }

    private static byte[] u64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private ManifestReader.Result read(byte[] file) throws IOException {
        return ManifestReader.read(LocalFileLayer.INSTANCE, Files.write(dir.resolve("MANIFEST"), file));
    }

    private CorruptionException refused(byte[] file) {
        return assertThrows(CorruptionException.class, () -> read(file));
    }

    @Test
    void aFileShorterThanItsHeaderIsCorruptionAtOffset0() {
        byte[] header = fileHeader(ManifestFormat.VERSION, 0);
        for (int size : new int[] {1, 3, 4, 6, 7}) {
            CorruptionException e = refused(Arrays.copyOf(header, size));
            assertEquals(0, e.offset(), size + " bytes");
            assertTrue(e.getMessage().contains("file header incomplete (" + size + " bytes)"), e.getMessage());
        }
    }

    @Test
    void anotherVersionOrANonZeroReservedFieldIsRefused() {
        CorruptionException version = refused(fileHeader(ManifestFormat.VERSION + 1, 0));
        assertEquals(4, version.offset());
        assertTrue(version.getMessage().contains("unsupported MANIFEST version 2"), version.getMessage());
        CorruptionException reserved = refused(fileHeader(ManifestFormat.VERSION, 1));
        assertEquals(6, reserved.offset());
    }

    /** The payload's checksum matches, so only the parse can catch it; it named the edit's start, not the field. */
    @Test
    void aFieldRunningPastItsEditIsCorruptionAtThatField() {
        byte[] payload = concat(field(ManifestFormat.TAG_LOG_NUMBER, u64(3)),
                new byte[] {ManifestFormat.TAG_NEXT_FILE_NUMBER, 100, 0}, u64(4));
        CorruptionException e = refused(concat(fileHeader(ManifestFormat.VERSION, 0), edit(payload)));
        assertEquals(FIRST_PAYLOAD + 11, e.offset());
        assertTrue(e.getMessage().contains("runs past the edit"), e.getMessage());
    }

    @Test
    void anAddSegmentShorterThanTheFirstVersionsEntryIsCorruption() {
        byte[] payload = concat(field(ManifestFormat.TAG_LAST_SEQUENCE, u64(9)),
                field(ManifestFormat.TAG_ADD_SEGMENT, new byte[ManifestFormat.ADD_SEGMENT_V1_BYTES - 1]));
        CorruptionException e = refused(concat(fileHeader(ManifestFormat.VERSION, 0), edit(payload)));
        assertEquals(FIRST_PAYLOAD + 11, e.offset());
        assertTrue(e.getMessage().contains("segment entry of 57 bytes is too short"), e.getMessage());
    }

    @Test
    void aCounterThatIsNot8BytesOrIsNegativeIsCorruption() {
        for (byte[] value : new byte[][] {new byte[4], new byte[16], u64(-1)}) {
            byte[] payload = field(ManifestFormat.TAG_NEXT_FILE_NUMBER, value);
            CorruptionException e = refused(concat(fileHeader(ManifestFormat.VERSION, 0), edit(payload)));
            assertEquals(FIRST_PAYLOAD, e.offset(), value.length + " bytes");
            assertTrue(e.getMessage().contains(value.length == 8 ? "negative counter -1"
                    : "expected an 8-byte value, found " + value.length + " bytes"), e.getMessage());
        }
    }

    /** One or two bytes after the last field are the start of a field header that does not fit. */
    @Test
    void aFieldHeaderCutShortIsCorruptionAtIt() {
        for (int extra = 1; extra <= 2; extra++) {
            byte[] payload = concat(field(ManifestFormat.TAG_LOG_NUMBER, u64(3)), new byte[extra]);
            CorruptionException e = refused(concat(fileHeader(ManifestFormat.VERSION, 0), edit(payload)));
            assertEquals(FIRST_PAYLOAD + 11, e.offset(), extra + " bytes");
            assertTrue(e.getMessage().contains("field header runs past the edit"), e.getMessage());
        }
    }

    /** The level is a u8: 128..255 read back as written, not as negative bytes refused as malformed. */
    @Test
    void levelsUpTo255ReadBack() throws IOException {
        SegmentMeta deep = new SegmentMeta(7, 255, 4096, 10, 1, 1, 2, 3, 4, true);
        SegmentMeta middle = new SegmentMeta(8, 128, 4096, 10, 1, 1, 2, 5, 6, true);
        byte[] payload = ManifestCodec.encode(ManifestEdit.builder().add(deep).add(middle).build());
        ManifestState state = read(concat(fileHeader(ManifestFormat.VERSION, 0), edit(payload))).state();
        assertEquals(deep, state.segments().get(7L));
        assertEquals(middle, state.segments().get(8L));
    }

    /**
     * An edit header whose own checksum matches but whose length is negative as an i32, or
     * above the 64 MiB limit, is damage: at the end, a torn tail; before an intact edit,
     * corruption. (A negative length reached the payload checksum and threw.)
     */
    @Test
    void anEditHeaderClaimingANegativeOrHugeLengthIsDamage() throws IOException {
        byte[] first = edit(field(ManifestFormat.TAG_LOG_NUMBER, u64(5)));
        byte[] second = edit(field(ManifestFormat.TAG_LOG_NUMBER, u64(6)));
        for (int length : new int[] {-1, Integer.MIN_VALUE, ManifestFormat.MAX_EDIT_BYTES + 1}) {
            byte[] bad = editHeader(length, 0);
            ManifestReader.Result torn = read(concat(fileHeader(ManifestFormat.VERSION, 0), first, bad));
            assertEquals(5, torn.state().logNumber());
            assertEquals(ManifestFormat.EDIT_HEADER_BYTES, torn.tornTailBytes(), "length " + length);

            CorruptionException e = refused(concat(fileHeader(ManifestFormat.VERSION, 0), first, bad, second));
            assertEquals(FIRST_EDIT + first.length, e.offset());
            assertTrue(e.getMessage().contains("impossible edit length " + Integer.toUnsignedString(length)),
                    e.getMessage());
        }
    }

    /** The search for an intact edit after damage reaches one that ends exactly at the end of the file. */
    @Test
    void anIntactEmptyEditEndingTheFileAfterDamageIsCorruption() throws IOException {
        byte[] first = edit(field(ManifestFormat.TAG_LOG_NUMBER, u64(5)));
        byte[] damaged = edit(field(ManifestFormat.TAG_LOG_NUMBER, u64(6)));
        damaged[damaged.length - 1] ^= 0x01; // the payload checksum no longer matches
        byte[] empty = edit(new byte[0]);
        assertEquals(5, read(concat(fileHeader(ManifestFormat.VERSION, 0), first, empty)).state().logNumber(),
                "an edit of no fields is intact");
        CorruptionException e = refused(concat(fileHeader(ManifestFormat.VERSION, 0), first, damaged, empty));
        assertEquals(FIRST_EDIT + first.length, e.offset());
        assertTrue(e.getMessage().contains("an intact edit follows"), e.getMessage());
    }
}
