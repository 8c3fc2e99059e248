package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * A leader's turn cut short by an error outside its I/O still ends. Found with 'tala import'
 * in a 64 MiB heap: an OutOfMemoryError in a rotation's bookkeeping left the log believing a
 * leader was active, and the import's close() then waited for it forever (no output, no exit).
 * Here the error comes from the owner's failure listener, where the engine logs (and allocates).
 */
class WalTurnCutShortTest {
    @TempDir
    Path dir;

    @Test
    void anErrorInTheFailureListenerDoesNotLeaveALeaderForever() throws Exception {
        Path walDir = dir.resolve("wal");
        Path second = walDir.resolve(DatabaseLayout.walFileName(2));
        FileLayer full = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public WritableFile create(Path file) throws IOException {
                if (file.equals(second)) {
                    throw new FileSystemException(file.toString(), null, "No space left on device (writing)");
                }
                return super.create(file);
            }
        };
        LocalFileLayer.INSTANCE.createDirectories(walDir);
        WriteAheadLog wal = WriteAheadLog.create(full, walDir, 1, 0, Durability.sync());
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
}
