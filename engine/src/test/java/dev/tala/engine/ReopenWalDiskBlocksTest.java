package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database reopened often takes no more disk than its records. Under NONE and BATCH durability
 * a WAL file preallocates 8 MiB ahead of its writes, and an open keeps the WAL files it replayed
 * until a flush (one more per open that writes). The blocks past each file's end stayed with it:
 * an endurance run of 150 opens, each writing 300 small intents, left 150 WAL files of 11 MiB of
 * records in all that held 1.2 GB of disk, and a 64 MiB memtable lets several hundred pile up.
 */
class ReopenWalDiskBlocksTest {
    private static final int OPENS = 12;
    private static final int DIMENSION = 8;

    @TempDir
    Path dir;

    @Test
    void walFilesKeptAcrossOpensHoldNoPreallocatedBlocks() throws Exception {
        Options options = Options.builder().dimension(DIMENSION).durability(Durability.none()).build();
        for (int open = 0; open < OPENS; open++) {
            try (TalaDB db = TalaDB.open(dir, options)) {
                for (int i = 0; i < 20; i++) {
                    db.put(intent(open * 100 + i));
                }
            }
        }
        List<Path> walFiles = walFiles();
        assertEquals(OPENS, walFiles.size(), "each open's records wait in its own WAL file for a flush");
        long bytes = 0;
        long allocated = 0;
        for (Path p : walFiles) {
            bytes += Files.size(p);
            allocated += allocatedBlocks(p) * 512;
        }
        assumeTrue(allocated > 0, "stat reports no blocks here");
        // A file's bytes take whole blocks, so each may round up by a block or so; a preallocation
        // left behind is 8 MiB.
        assertTrue(allocated <= bytes + OPENS * 64L * 1024, OPENS + " WAL files of " + bytes + " bytes take "
                + allocated + " bytes of disk");
        try (TalaDB db = TalaDB.open(dir, options)) {
            assertEquals(OPENS * 20L, db.stats().intents(), "every record replays");
        }
    }

    private List<Path> walFiles() throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
            return files.filter(p -> DatabaseLayout.walNumber(p).isPresent()).sorted().toList();
        }
    }

    private static Intent intent(int n) {
        float[] embedding = new float[DIMENSION];
        embedding[n % DIMENSION] = 1f;
        return Intent.builder().id(IntentId.of(1, n + 1)).timestampNs(n + 1L).command("restart job " + n)
                .embedding(embedding).build();
    }

    /** 512-byte blocks the file system gave {@code p}, as stat(1) reports them. */
    private static long allocatedBlocks(Path p) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%b", p.toString()).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes()).trim();
        assertEquals(0, stat.waitFor(), out);
        return Long.parseLong(out);
    }
}
