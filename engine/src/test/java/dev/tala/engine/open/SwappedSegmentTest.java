package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment file replaced by another database's segment of the same number (a restore from the
 * wrong copy): its header names the right segment, so only the MANIFEST's entry can tell. Reads
 * prune by the entry's timestamps, so a time-range scan could skip rows of such a file that a
 * lookup by id finds. Before the check, every open took it.
 */
class SwappedSegmentTest {
    static final int DIM = 8;

    @TempDir
    Path dir;
    @TempDir
    Path other;

    private static Options options() {
        return Options.builder().dimension(DIM).durability(Durability.none()).backgroundCompaction(false).build();
    }

    /** One flushed segment of {@code count} intents from {@code seed}; returns its file. */
    private static Path oneSegment(Path db, long seed, int count) throws IOException {
        RandomIntents gen = new RandomIntents(seed, DIM);
        try (TalaDB t = TalaDB.open(db, options())) {
            for (int i = 0; i < count; i++) {
                t.put(gen.next());
            }
            t.flush();
        }
        return RecoveryProtocolTest.onlySegment(db);
    }

    @Test
    void anOpenRefusesASegmentFileTheManifestDoesNotDescribe() throws IOException {
        Path mine = oneSegment(dir, 1, 20);
        Path theirs = oneSegment(other, 2, 30);
        assertEquals(mine.getFileName(), theirs.getFileName(), "both databases number their first segment alike");
        Files.copy(theirs, mine, StandardCopyOption.REPLACE_EXISTING);
        Path manifest = new DatabaseLayout(dir).manifestFile();

        for (boolean readOnly : new boolean[] {false, true}) {
            CorruptionException refused = assertThrows(CorruptionException.class,
                    () -> (readOnly ? TalaDB.openReadOnly(dir) : TalaDB.open(dir, options())).close());
            assertEquals(manifest.toString(), refused.file());
            assertTrue(refused.what().contains("lists segment") && refused.what().contains(mine.toString())
                    && refused.what().contains("is not the segment the MANIFEST lists"), refused.what());
        }

        VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        List<VerifyReport.Problem> found = report.problems().stream()
                .filter(p -> p.file().equals(manifest.toString())).toList();
        assertEquals(1, found.size(), report.problems().toString());
        assertTrue(found.getFirst().what().endsWith("is not the segment the MANIFEST lists (an open refuses this)"),
                found.getFirst().what());
    }
}
