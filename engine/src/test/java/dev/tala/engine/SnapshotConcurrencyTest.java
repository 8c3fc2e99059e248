package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.query.SearchFilter;
import dev.tala.recovery.RecoveryReport;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A snapshot shared between threads: closed twice at once, closed under a running query, closed from a callback. */
class SnapshotConcurrencyTest {
    static final int DIM = 16;

    @TempDir
    Path dir;

    private static Options options() {
        return Options.builder().dimension(DIM).memtableBytes(256 * 1024).durability(Durability.none())
                .backgroundCompaction(false).build();
    }

    /** {@code n} intents in segments of {@code perSegment}; returns their ids. */
    private static List<IntentId> fill(TalaDB db, int n, int perSegment) {
        RandomIntents gen = new RandomIntents(7, DIM);
        List<IntentId> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Intent x = gen.next();
            db.put(x);
            ids.add(x.id());
            if (i % perSegment == perSegment - 1) {
                db.flush();
            }
        }
        db.flush();
        return ids;
    }

    /**
     * A snapshot still open at close keeps the compaction inputs it reads, and the next open
     * deletes them. That is housekeeping, not a repair, and its reason must not claim a crash
     * (it did, which misleads an operator reading the report of a clean shutdown).
     */
    @Test
    void inputsASnapshotHeldAtCloseAreDeletedByTheNextOpenAsHousekeeping() {
        Snapshot held;
        List<IntentId> ids;
        try (TalaDB db = TalaDB.open(dir, options())) {
            ids = fill(db, 300, 100);
            held = db.snapshot();
            assertTrue(db.compact().isPresent(), "the three segments were compacted");
        }
        assertEquals(ids.size(), held.countIntents(), "the snapshot still reads its segments after close");
        held.close();
        try (TalaDB db = TalaDB.open(dir, options())) {
            RecoveryReport report = db.recoveryReport();
            assertTrue(report.isClean(), report.headline());
            List<RecoveryReport.Action> actions = report.actions();
            assertEquals(3, actions.size(), actions.toString());
            for (RecoveryReport.Action a : actions) {
                assertEquals(RecoveryReport.Action.Kind.DELETED_OBSOLETE_SEGMENT, a.kind());
                assertTrue(a.reason().contains("a close while a snapshot still read it"), a.reason());
            }
            try (Snapshot now = db.snapshot()) {
                assertEquals(ids.size(), now.countIntents());
            }
        }
    }

    @Test
    void twoThreadsClosingOneSnapshotReleaseItsViewOnce() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            List<IntentId> ids = fill(db, 2_000, 500);
            for (int round = 0; round < 1_000; round++) {
                Snapshot s = db.snapshot();
                CountDownLatch go = new CountDownLatch(1);
                Set<Throwable> failures = ConcurrentHashMap.newKeySet();
                Runnable closer = () -> {
                    try {
                        go.await();
                        s.close();
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                };
                Thread a = Thread.ofPlatform().start(closer);
                Thread b = Thread.ofPlatform().start(closer);
                go.countDown();
                a.join();
                b.join();
                assertEquals(Set.of(), failures);
                // A view released twice was left with no references while still current.
                assertTrue(db.get(ids.get(round % ids.size())).isPresent(), "round " + round);
            }
            db.put(new RandomIntents(3, DIM).next());
            db.flush();
        }
    }

    @Test
    void aQueryRunningWhenAnotherThreadClosesTheSnapshotFinishes() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            fill(db, 6_000, 1_000);
            float[] query = new RandomIntents(1, DIM).embedding();
            for (int round = 0; round < 10; round++) {
                Snapshot s = db.snapshot();
                // The compaction leaves the snapshot holding the only references to its segments.
                db.compact(CompactionProgress.Listener.NONE);
                db.put(new RandomIntents(100 + round, DIM).next());
                db.flush();
                long stored = 6_000 + round;
                CountDownLatch started = new CountDownLatch(1);
                Throwable[] ended = new Throwable[1];
                Thread reader = Thread.ofPlatform().start(() -> {
                    started.countDown();
                    try {
                        while (true) {
                            assertEquals(10, s.search(query, 10, SearchFilter.ALL).size());
                            assertEquals(stored, s.countIntents());
                        }
                    } catch (Throwable t) {
                        ended[0] = t;
                    }
                });
                started.await();
                Thread.sleep(2 + round);
                s.close();
                reader.join();
                assertTrue(ended[0] instanceof DatabaseClosedException, "the reader ended with " + ended[0]);
            }
        }
        assertEquals(List.of(), mappingsOf(dir), "every mapped file of the database is unmapped after close");
    }

    @Test
    void aScanWhoseConsumerClosesTheSnapshotCompletesAndLaterCallsAreRefused() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            List<IntentId> ids = fill(db, 3_000, 1_000);
            Snapshot s = db.snapshot();
            db.compact(CompactionProgress.Listener.NONE);
            AtomicInteger seen = new AtomicInteger();
            long returned = s.scan(0, Long.MAX_VALUE, i -> {
                if (seen.incrementAndGet() == 10) {
                    s.close();
                }
                return true;
            });
            assertEquals(3_000, returned);
            assertEquals(3_000, seen.get());
            assertThrows(DatabaseClosedException.class, () -> s.get(ids.getFirst()));
            s.close();
            assertEquals(Optional.of(ids.getLast()), db.get(ids.getLast()).map(Intent::id));
        }
        assertEquals(List.of(), mappingsOf(dir));
    }

    /** Lines of /proc/self/maps naming a file under {@code dir} (none where there is no procfs). */
    private static List<String> mappingsOf(Path dir) throws IOException {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.exists(maps)) {
            return List.of();
        }
        String root = dir.toRealPath().toString();
        return Files.readAllLines(maps).stream().filter(l -> l.contains(root)).toList();
    }
}
