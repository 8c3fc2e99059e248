package dev.tala.core.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.checksum.Crc32c;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFileLayer} on a really full disk (docs/RECOVERY.md: a full disk is an exception
 * naming what failed, never a dead JVM). Skipped unless root can mount.
 */
class RealDiskFullTest {
    @TempDir
    Path tmp;

    /**
     * A hole of a sparse file (a segment copied with cp --sparse=always, rsync -S, a restore)
     * read through a mapping on a full tmpfs raises SIGBUS. The CRC32C intrinsic over a mapped
     * buffer is not guarded by the JVM: checksummed that way, the JVM (and this test's fork) dies.
     */
    @Test
    void checksummingAnUnbackedMappedPageIsAnExceptionNotACrash() throws Exception {
        try (RealMount m = RealMount.tmpfs(tmp, 1024)) {
            Path file = m.dir.resolve("sparse.tbf");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {1}), 256 * 1024 - 1); // 256 KiB, all but one page a hole
            }
            m.fill("filler");
            try (MappedRegion region = LocalFileLayer.INSTANCE.map(file)) {
                UncheckedIOException e = assertThrows(UncheckedIOException.class,
                        () -> Crc32c.of(region.segment(), 0, region.segment().byteSize()));
                assertTrue(e.getMessage().contains("could not be read"), e.getMessage());
            }
        }
    }

    /** The JDK's ENOSPC says only "No space left on device"; the database's error must name the file. */
    @Test
    void aWriteOnAFullDiskNamesTheFile() throws Exception {
        try (RealMount m = RealMount.tmpfs(tmp, 512)) {
            m.fill("filler");
            Path file = m.dir.resolve("00000000000000000007.tbf");
            try (WritableFile f = LocalFileLayer.INSTANCE.create(file)) {
                IOException e = assertThrows(IOException.class, () -> f.append(ByteBuffer.allocate(64 * 1024)));
                assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
                assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            }
        }
    }

    /**
     * ext4 keeps the blocks a refused fallocate got before it ran out, past the end of the file
     * where nothing uses them: a WAL file that could not preallocate its 8 MiB took the disk's
     * last free megabytes, and the database failed with ENOSPC on a disk with room (405 NONE
     * writes of about 300 bytes fitted into 3.7 MB). The refused preallocation must give them back.
     */
    @Test
    void aRefusedPreallocationGivesTheSpaceBack() throws Exception {
        try (RealMount m = RealMount.ext4(tmp, 8 * 1024)) {
            Path file = m.dir.resolve("00000000000000000001.wal");
            try (WritableFile f = LocalFileLayer.INSTANCE.create(file)) {
                f.append(ByteBuffer.allocate(100));
                f.force();
                long before = m.usable();
                boolean reserved;
                try {
                    reserved = f.preallocate(100, 64L << 20);
                } catch (IOException refused) {
                    reserved = false;
                }
                assertFalse(reserved, "64 MiB cannot fit an 8 MiB file system");
                long after = m.usable();
                assertTrue(after >= before - 64 * 1024,
                        "a refused preallocation kept " + (before - after) + " of " + before + " free bytes");
            }
        }
    }
}
