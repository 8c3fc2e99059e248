package dev.tala.recovery.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.segment.SegmentMeta;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * add_segment entries of each length a MANIFEST may hold: the first version's 58 bytes (no
 * tombstone count), today's 66, and a longer one from a later version, whose extra bytes are
 * ignored. Built byte by byte as docs/FORMAT.md describes them, not with the codec under test.
 */
class SegmentEntryVersionsTest {
    @TempDir
    Path dir;

    private static final SegmentMeta META = new SegmentMeta(7, 2, 4096, 300, 120, 1_000, 2_000, 10, 309, true);

    @Test
    void anEntryOfTheFirstVersionReadsAsHavingNoTombstones() throws IOException {
        SegmentMeta read = readBack(entry(ManifestFormat.ADD_SEGMENT_V1_BYTES, 120));
        assertEquals(new SegmentMeta(7, 2, 4096, 300, 0, 1_000, 2_000, 10, 309, true), read);
    }

    @Test
    void todaysEntryCarriesTheTombstoneCount() throws IOException {
        assertEquals(66, ManifestFormat.ADD_SEGMENT_BYTES);
        assertEquals(META, readBack(entry(ManifestFormat.ADD_SEGMENT_BYTES, 120)));
    }

    @Test
    void aLongerEntryFromALaterVersionIsReadWithoutItsExtraBytes() throws IOException {
        assertEquals(META, readBack(entry(ManifestFormat.ADD_SEGMENT_BYTES + 13, 120)));
    }

    @Test
    void anEntryEndingInsideTheTombstoneCountIsAMalformedEdit() {
        for (int length = ManifestFormat.ADD_SEGMENT_V1_BYTES + 1; length < ManifestFormat.ADD_SEGMENT_BYTES; length++) {
            byte[] cut = java.util.Arrays.copyOf(entry(ManifestFormat.ADD_SEGMENT_BYTES, 120), length);
            CorruptionException e = assertThrows(CorruptionException.class, () -> readBack(cut), "length " + length);
            assertTrue(e.getMessage().contains("ends inside its tombstone count"), e.getMessage());
        }
    }

    @Test
    void moreTombstonesThanRowsIsAMalformedEdit() throws IOException {
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> readBack(entry(ManifestFormat.ADD_SEGMENT_BYTES, 301)));
        assertTrue(e.getMessage().contains("tombstones 301"), e.getMessage());
    }

    @Test
    void theCodecWritesTodaysEntry() {
        byte[] payload = ManifestCodec.encode(ManifestEdit.builder().add(META).build());
        // The edit's only field: tag 4, u16 length, the entry.
        ByteBuffer b = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(ManifestFormat.TAG_ADD_SEGMENT, b.get(0));
        assertEquals(66, b.getShort(1));
        assertEquals(120, b.getLong(3 + 58), "tombstones after the first version's 58 bytes");
    }

    /** One add_segment value of {@code length} bytes for META, with the given tombstone count. */
    private static byte[] entry(int length, long tombstones) {
        ByteBuffer v = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        v.putLong(7).put((byte) 2).putLong(4096).putLong(300).putLong(1_000).putLong(2_000).putLong(10).putLong(309)
                .put((byte) 1);
        if (length >= 66) {
            v.putLong(tombstones);
        }
        while (v.hasRemaining()) {
            v.put((byte) 0x5A);
        }
        return v.array();
    }

    /** Writes a MANIFEST whose one edit adds the entry, and reads the segment it lists. */
    private SegmentMeta readBack(byte[] entry) throws IOException {
        ByteBuffer payload = ByteBuffer.allocate(3 + entry.length).order(ByteOrder.LITTLE_ENDIAN);
        payload.put(ManifestFormat.TAG_ADD_SEGMENT).putShort((short) entry.length).put(entry);
        byte[] p = payload.array();
        ByteBuffer file = ByteBuffer.allocate(ManifestFormat.FILE_HEADER_BYTES + ManifestFormat.EDIT_HEADER_BYTES
                + p.length).order(ByteOrder.LITTLE_ENDIAN);
        file.put(ManifestFormat.MAGIC).putShort(ManifestFormat.VERSION).putShort((short) 0);
        int header = file.position();
        file.putInt(p.length).putInt(Crc32c.of(p, 0, p.length));
        file.putInt(Crc32c.of(file.array(), header, 8)).put(p);
        Path manifest = Files.write(dir.resolve("MANIFEST"), file.array());
        return ManifestReader.read(LocalFileLayer.INSTANCE, manifest).state().segments().get(7L);
    }
}
