package dev.tala.recovery.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.segment.SegmentMeta;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What applying an edit does to the live and obsolete segments, in the cases the history tests miss. */
class ManifestStateTest {
    @TempDir
    Path dir;

    private static SegmentMeta meta(long id, int level) {
        return new SegmentMeta(id, level, 4096, 10, 0, 1, 2, 10, 19, level > 0);
    }

    private static ManifestState withLive(SegmentMeta... segments) {
        ManifestEdit.Builder b = ManifestEdit.builder();
        for (SegmentMeta s : segments) {
            b.add(s);
        }
        return ManifestState.EMPTY.apply(b.build());
    }

    /**
     * A move's edit removes its inputs and adds them back relabelled: the files stay, live, and
     * must not be listed as obsolete too (obsolete files are the ones recovery deletes).
     */
    @Test
    void aMovedSegmentIsLiveAndNotObsolete() {
        ManifestState before = withLive(meta(5, 0), meta(6, 0));
        ManifestState after = before.apply(ManifestEdit.builder().remove(5).remove(6).add(meta(5, 1))
                .add(meta(6, 1)).build());
        assertEquals(List.of(5L, 6L), List.copyOf(after.segments().keySet()));
        assertEquals(1, after.segments().get(5L).level());
        assertTrue(after.obsolete().isEmpty(), "obsolete: " + after.obsolete());
        assertTrue(after.asSnapshotEdit().obsolete().isEmpty());
    }

    /** Only a live segment becomes obsolete when removed: another file of that number is not one to delete. */
    @Test
    void removingASegmentThatIsNotLiveMakesNothingObsolete() {
        ManifestState after = withLive(meta(5, 0)).apply(ManifestEdit.builder().remove(99).build());
        assertEquals(Set.of(5L), after.segments().keySet());
        assertTrue(after.obsolete().isEmpty(), "obsolete: " + after.obsolete());
    }

    /** docs/FORMAT.md: a new MANIFEST's snapshot edit is log_number 0, next_file_number 1, last_sequence 0. */
    @Test
    void aNewManifestNumbersFilesFrom1() throws IOException {
        Path file = dir.resolve("MANIFEST");
        Manifest.create(LocalFileLayer.INSTANCE, file, ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES).close();
        ManifestState read = ManifestReader.read(LocalFileLayer.INSTANCE, file).state();
        assertEquals(0, read.logNumber());
        assertEquals(1, read.nextFileNumber());
        assertEquals(0, read.lastSequence());
        assertTrue(read.segments().isEmpty() && read.obsolete().isEmpty());
    }
}
