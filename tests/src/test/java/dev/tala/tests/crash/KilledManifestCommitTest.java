package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A process is killed after it wrote a MANIFEST edit and before it made the edit durable, so
 * the edit is in the page cache only. The next process opens, reading that edit, and crashes
 * at each of its file operations in turn (or opens and acknowledges more writes); then the
 * power goes. The database must open with every acknowledged write: an open that deleted what
 * the edit retired (the WAL files of a flush, the inputs of a compaction) before the edit was
 * durable lost both the edit and the files, and the database no longer opened.
 */
class KilledManifestCommitTest {
    static final int DIM = 8;

    @TempDir
    Path work;

    /** What the killed process was committing, and the operation it died before. */
    enum Commit {
        /** A flush's edit appended, not forced. */
        FLUSH,
        /** A compaction's edit appended, not forced. */
        COMPACTION,
        /** A flush's MANIFEST rewrite renamed into place, the directory not synced. */
        REWRITE
    }

    @ParameterizedTest
    @EnumSource(Commit.class)
    void theNextOpenMakesTheEditDurableBeforeActingOnIt(Commit commit) throws Exception {
        boolean openCompleted = false;
        for (int k = 0; !openCompleted; k++) {
            Path root = work.resolve(commit + "-" + k);
            Path dir = root.resolve("db").toAbsolutePath().normalize();
            FaultInjectingFileLayer fault = new FaultInjectingFileLayer(root.resolve("stash"));
            RandomIntents gen = new RandomIntents(k, DIM);
            List<Intent> acknowledged = killedWhileCommitting(commit, dir, fault, gen);

            fault.kill();
            fault.crashAfter(k);
            try (TalaDB second = TalaDB.open(dir, options(commit, fault))) {
                openCompleted = true;
                for (int i = 0; i < 5; i++) {
                    Intent x = gen.next();
                    second.put(x);
                    acknowledged.add(x);
                }
                fault.powerLoss();
            } catch (RuntimeException crashOrPowerLoss) {
                // The crash point inside the open, or the close after the power loss.
            }
            String crashedAt = openCompleted ? "none: the open completed" : fault.crashedAt();
            if (!openCompleted) {
                fault.powerLoss();
            }
            String where = commit + ", the next open crashed after " + k + " operations (at " + crashedAt + ")";
            try (TalaDB again = TalaDB.open(dir, options(commit, LocalFileLayer.INSTANCE))) {
                for (Intent x : acknowledged) {
                    assertEquals(Optional.of(x), again.get(x.id()), where + ": an acknowledged write is lost");
                }
            } catch (RuntimeException e) {
                throw new AssertionError(where + ": the database does not open after the power loss: "
                        + e.getMessage(), e);
            }
        }
    }

    /** The first process: SYNC writes, then {@code commit}, killed before it is durable. */
    private static List<Intent> killedWhileCommitting(Commit commit, Path dir, FaultInjectingFileLayer fault,
                                                      RandomIntents gen) {
        List<Intent> acknowledged = new ArrayList<>();
        TalaDB first = TalaDB.open(dir, options(commit, fault));
        int flushes = commit == Commit.COMPACTION ? 3 : 1;
        for (int f = 0; f < flushes; f++) {
            for (int i = 0; i < 10; i++) {
                Intent x = gen.next();
                first.put(x);
                acknowledged.add(x);
            }
            if (f < flushes - 1) {
                first.flush();
            }
        }
        String deathBefore = commit == Commit.REWRITE ? "fsync-dir " + dir : "force " + dir.resolve("MANIFEST");
        fault.crashBefore(deathBefore::equals);
        try {
            if (commit == Commit.COMPACTION) {
                first.compact();
            } else {
                first.flush();
            }
        } catch (RuntimeException killed) {
            // The process dies here.
        }
        try {
            first.close();
        } catch (RuntimeException killed) {
            // Nothing more reaches the files.
        }
        assertTrue(fault.hasCrashed() && deathBefore.equals(fault.crashedAt()),
                "the first process died before " + deathBefore + ", not at " + fault.crashedAt());
        return acknowledged;
    }

    private static Options options(Commit commit, dev.tala.core.io.FileLayer fs) {
        Options.Builder b = Options.builder().dimension(DIM).durability(Durability.sync()).memtableBytes(1 << 20)
                .backgroundCompaction(false).fileLayer(fs);
        if (commit == Commit.REWRITE) {
            b.manifestRewriteBytes(1);
        }
        return b.build();
    }
}
