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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rotation that cannot create the next WAL file, as on a full disk, and what the log does then. */
class WalFailureMessageTest {
    @TempDir
    Path dir;

    /**
     * From a review: the log's failure names the file that failed. When a rotation could not
     * create the next file (a full disk, as the real layer reports it), the message said the log
     * could not write or force the old file, and then named the new one.
     */
    @Test
    void aFailedRotationNamesTheFileThatFailed() throws Exception {
        WriteAheadLog wal = logThatCannotCreateItsSecondFile();
        Path second = dir.resolve("wal").resolve(DatabaseLayout.walFileName(2));
        DatabaseFailedException e = assertThrows(DatabaseFailedException.class, () -> wal.rotate(2));
        Path first = dir.resolve("wal").resolve(DatabaseLayout.walFileName(1));
        assertFalse(e.getMessage().contains(first.toString()), "names a file that did not fail: " + e.getMessage());
        assertTrue(e.getMessage().startsWith("the write-ahead log could not write or force " + second
                + ": No space left on device (writing); the database is read-only"), e.getMessage());
        try {
            wal.close();
        } catch (IOException | RuntimeException ignored) {
            // failed log
        }
    }

    /**
     * A leader's turn cut short by an error outside its I/O still ends. Found with 'tala import'
     * in a 64 MiB heap: an OutOfMemoryError in a rotation's bookkeeping left the log believing a
     * leader was active, and the import's close() then waited for it forever (no output, no exit).
     * Here the error comes from the owner's failure listener, where the engine logs (and allocates).
     */
    @Test
    void anErrorInTheFailureListenerDoesNotLeaveALeaderForever() throws Exception {
        WriteAheadLog wal = logThatCannotCreateItsSecondFile();
        wal.onFailure(failed -> {
            throw new OutOfMemoryError("simulated: no heap left to log the failure");
        });
        assertThrows(OutOfMemoryError.class, () -> wal.rotate(2));

        assertTrue(wal.hasFailed(), "the turn's outcome is unknown, so the log refuses further writes");
        CompletableFuture<Void> close = CompletableFuture.runAsync(() -> {
            try {
                wal.close();
            } catch (IOException ignored) {
                // a failed log may report it again on close
            }
        });
        close.get(10, TimeUnit.SECONDS);
    }

    /** A SYNC log in file 1 whose file layer refuses to create file 2 as a full disk does. */
    private WriteAheadLog logThatCannotCreateItsSecondFile() throws IOException {
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
        return WriteAheadLog.create(full, walDir, 1, 0, Durability.sync());
    }
}
