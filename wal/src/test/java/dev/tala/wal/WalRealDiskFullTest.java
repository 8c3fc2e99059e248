package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.RealMount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WAL file started on a really full tmpfs (every open of a database does this: `tala stats`,
 * `export`, `recover` on a full disk). A refused start must not leave a 0-byte WAL file, which
 * the next open would delete with the warning "a write torn by the crash" although nothing
 * had crashed. Skipped unless root can mount.
 */
class WalRealDiskFullTest {
    @TempDir
    Path tmp;

    @Test
    void aWalFileThatCouldNotStartLeavesNothingBehind() throws Exception {
        try (RealMount mount = RealMount.tmpfs(tmp, 512)) {
            Path walDir = Files.createDirectories(mount.dir.resolve("wal"));
            mount.fill("filler");
            IOException e = assertThrows(IOException.class, () -> WriteAheadLog.create(LocalFileLayer.INSTANCE, walDir, 7, 0,
                    Durability.sync()));
            try (var files = Files.list(walDir)) {
                assertEquals(List.of(), files.toList(), "left behind after: " + e);
            }
        }
    }
}
