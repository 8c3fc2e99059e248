package dev.tala.recovery.manifest;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MANIFEST built to be slow: after the file header, an edit header every 12 bytes whose own
 * checksum matches, each claiming an edit that runs to the end of the file and whose payload
 * checksum never matches. Telling a torn tail from corruption checked every claimed edit, which
 * took time quadratic in the file's size (28 s for 4 MiB, hours for 64 MiB; found by the segment
 * audit). The search now gives up after a few file sizes' worth of claimed edits and refuses the
 * file as corrupt, rather than drop its tail.
 */
class HostileManifestTest {
    @TempDir
    Path dir;

    @Test
    void editHeadersThatPassTheirChecksumEverywhereAreRefusedNotSearchedForever() throws Exception {
        int size = 4 << 20;
        byte[] b = new byte[size];
        ByteBuffer w = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        w.put(ManifestFormat.MAGIC).putShort(ManifestFormat.VERSION).putShort((short) 0);
        for (int at = ManifestFormat.FILE_HEADER_BYTES; at + ManifestFormat.EDIT_HEADER_BYTES <= size;
                at += ManifestFormat.EDIT_HEADER_BYTES) {
            w.putInt(at, size - at - ManifestFormat.EDIT_HEADER_BYTES).putInt(at + 4, 0x12345678);
            w.putInt(at + 8, Crc32c.of(b, at, 8));
        }
        Path file = Files.write(dir.resolve("MANIFEST"), b);
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> ManifestReader.read(LocalFileLayer.INSTANCE, file));
        assertTrue(e.getMessage().contains("too many edit headers after it pass their checksum"), e.getMessage());
    }
}
