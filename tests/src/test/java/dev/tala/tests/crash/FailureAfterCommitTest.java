package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of docs/RECOVERY.md against the code: a compaction run on the caller's thread
 * that fails after its MANIFEST edit (here its output cannot be opened: a bit flipped on read)
 * left the database writable, with the MANIFEST listing the output and the live set still the
 * inputs. A delete and a full compaction later, a reopen found the stale output listed and the
 * deleted intent back. The database now fails at once, as a background compaction's does.
 */
class FailureAfterCommitTest {
    @TempDir
    Path work;

    @Test
    void aCompactionThatFailsAfterItsEditFailsTheDatabase() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        RandomIntents gen = new RandomIntents(11, 8);
        List<Intent> written = new ArrayList<>();
        try (TalaDB db = TalaDB.open(dir, options(fault))) {
            for (int flush = 0; flush < 2; flush++) {
                for (int i = 0; i < 10; i++) {
                    Intent x = gen.next();
                    db.put(x);
                    written.add(x);
                }
                db.flush();
            }
            long newest = db.liveSegments().stream().mapToLong(SegmentMeta::id).max().orElseThrow();
            fault.flipBitOnRead(new DatabaseLayout(dir).segmentFile(newest + 1), 8 * 20 + 3);
            assertThrows(RuntimeException.class, db::compact);
            assertTrue(db.stats().failed(), "the database failed with its compaction");
            assertThrows(DatabaseFailedException.class, () -> db.delete(written.getFirst().id()));
        }
        try (TalaDB reopened = TalaDB.open(dir, options(LocalFileLayer.INSTANCE))) {
            for (Intent x : written) {
                assertEquals(Optional.of(x.id()), reopened.get(x.id()).map(Intent::id));
            }
            reopened.delete(written.getFirst().id());
            reopened.flush();
            reopened.compact();
        }
        try (TalaDB again = TalaDB.open(dir, options(LocalFileLayer.INSTANCE))) {
            assertEquals(Optional.empty(), again.get(written.getFirst().id()), "a deleted intent came back");
            assertEquals(written.size() - 1, again.stats().intents());
        }
    }

    private static Options options(FileLayer fs) {
        return Options.builder().dimension(8).durability(Durability.sync()).memtableBytes(1 << 20)
                .backgroundCompaction(false).fileLayer(fs).build();
    }
}
