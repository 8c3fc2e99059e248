package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From a review: the log's failure names the file that failed. When a rotation could not
 * create the next file (a full disk, as the real layer reports it), the message said the log
 * could not write or force the old file, and then named the new one.
 */
class WalFailureMessageTest {
    @TempDir
    Path dir;

    @Test
    void aFailedRotationNamesTheFileThatFailed() throws Exception {
        Path walDir = dir.resolve("wal");
        Path second = walDir.resolve(DatabaseLayout.walFileName(2));
        FileLayer full = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public WritableFile create(Path file) throws IOException {
                if (file.equals(second)) {
                    // What LocalFileLayer's named() throws for ENOSPC.
                    throw new FileSystemException(file.toString(), null, "No space left on device (writing)");
                }
                return super.create(file);
            }
        };
        LocalFileLayer.INSTANCE.createDirectories(walDir);
        WriteAheadLog wal = WriteAheadLog.create(full, walDir, 1, 0, Durability.sync());
        DatabaseFailedException e = assertThrows(DatabaseFailedException.class, () -> wal.rotate(2));
        Path first = walDir.resolve(DatabaseLayout.walFileName(1));
        assertFalse(e.getMessage().contains(first.toString()), "names a file that did not fail: " + e.getMessage());
        assertTrue(e.getMessage().startsWith("the write-ahead log could not write or force " + second
                + ": No space left on device (writing); the database is read-only"), e.getMessage());
        try {
            wal.close();
        } catch (IOException | RuntimeException ignored) {
            // failed log
        }
    }
}
