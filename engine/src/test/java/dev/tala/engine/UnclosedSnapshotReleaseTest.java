package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot pins its view's segments, and their mappings live in shared arenas that only an
 * explicit close unmaps. A caller that drops a snapshot without closing it (a missed
 * try-with-resources, an exception path) made every compaction input under it stay mapped and
 * on disk for as long as the process ran, and each further leaked snapshot added more: 5
 * dropped snapshots across 5 compactions left 9 compaction inputs in segments/ and mapped, and
 * closing the database unmapped none of them. Once the snapshot is unreachable, nothing can
 * read through it, so the view may go.
 */
class UnclosedSnapshotReleaseTest {
    static final int DIM = 16;
    static final int CYCLES = 5;

    @TempDir
    Path root;

    private Options options() {
        return Options.builder().dimension(DIM).durability(Durability.none()).backgroundCompaction(false).build();
    }

    @Test
    void droppedSnapshotsStopPinningCompactionInputsOnceCollected() throws Exception {
        Path dir = root.resolve("db");
        RandomIntents gen = new RandomIntents(11, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int c = 0; c < CYCLES; c++) {
                for (int i = 0; i < 100; i++) {
                    db.put(gen.next());
                }
                db.flush();
                takeAndDropSnapshot(db);
                db.compact();
            }
            Set<String> live = db.liveSegments().stream().map(SegmentMeta::id)
                    .map(id -> DatabaseLayout.segmentFileName(id)).collect(Collectors.toSet());
            Supplier<List<String>> obsoleteFiles = () -> segmentFiles(dir).stream()
                    .filter(name -> !live.contains(name)).toList();
            awaitEmpty(obsoleteFiles);
            assertEquals(List.of(), obsoleteFiles.get(), "compaction inputs still on disk, pinned by dropped snapshots");
            Supplier<List<String>> stale = () -> mappingsOf(dir).stream()
                    .filter(line -> live.stream().noneMatch(line::endsWith)).toList();
            awaitEmpty(stale);
            assertEquals(List.of(), stale.get(), "compaction inputs still mapped, pinned by dropped snapshots");
        }
    }

    @Test
    void droppedSnapshotsAreUnmappedAfterTheDatabaseCloses() throws Exception {
        Path dir = root.resolve("db");
        RandomIntents gen = new RandomIntents(12, DIM);
        for (int c = 0; c < CYCLES; c++) {
            try (TalaDB db = TalaDB.open(dir, options())) {
                for (int i = 0; i < 100; i++) {
                    db.put(gen.next());
                }
                db.flush();
                takeAndDropSnapshot(db);
                db.compact();
            }
        }
        Supplier<List<String>> mapped = () -> mappingsOf(dir);
        awaitEmpty(mapped);
        assertEquals(List.of(), mapped.get(), "segments still mapped after every database closed");
    }

    /** In its own frame, so that no local variable keeps the snapshot reachable. */
    private static void takeAndDropSnapshot(TalaDB db) {
        db.snapshot().countIntents();
    }

    /** Collects garbage until {@code what} is empty, for up to two seconds. */
    private static void awaitEmpty(Supplier<List<String>> what) throws InterruptedException {
        for (int i = 0; i < 100 && !what.get().isEmpty(); i++) {
            System.gc();
            Thread.sleep(20);
        }
    }

    private static List<String> segmentFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir.resolve("segments"))) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    /** Lines of /proc/self/maps naming a file under {@code dir} (none where there is no procfs). */
    private static List<String> mappingsOf(Path dir) {
        try {
            Path maps = Path.of("/proc/self/maps");
            if (!Files.exists(maps)) {
                return List.of();
            }
            String real = dir.toRealPath().toString();
            return Files.readAllLines(maps).stream().filter(l -> l.contains(real)).toList();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }
}
