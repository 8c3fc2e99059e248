package dev.tala.tests.corruption;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the two undamaged databases the damage cases copy.
 *
 * <p><b>main</b>, in one session: four flushed segments, a full compaction of them, two more
 * segments of mixed writes over the compacted data (replacements, deletes and outcome updates
 * of older ids, so reads must merge across segments), a last segment of fresh puts only, then
 * mixed writes left unflushed in the WAL, then close. Flushes are explicit (the memtable is too
 * big to fill) so the model knows exactly which writes each segment holds; background
 * compaction is off for the same reason. Its MANIFEST holds one edit per flush and one for the
 * compaction, and its only WAL file holds the unflushed writes.
 *
 * <p><b>two-wal</b>: a copy of main, reopened, with more writes, then closed. Opening replays
 * main's WAL file into the memtable and starts a new file without flushing, so the copy ends
 * with two WAL files: main's (now the older) and the new one. This is deterministic, unlike
 * catching a memtable switch whose flush has not finished. The reopen rewrote its MANIFEST as
 * a single snapshot edit.
 */
final class BaseDatabases {
    static final int DIMENSION = 8;
    static final Options BUILD_OPTIONS = Options.builder().dimension(DIMENSION).memtableBytes(4L << 20)
            .durability(Durability.sync()).backgroundCompaction(false).build();

    record Bases(BaseDatabase main, BaseDatabase twoWal) {
    }

    private BaseDatabases() {
    }

    static Bases build(Path root, long seed) {
        HistoryWriter writer = new HistoryWriter(seed, DIMENSION, new History());
        Path mainDir = root.resolve("main");
        Map<String, Set<Integer>> segments = new HashMap<>();
        try (TalaDB db = TalaDB.open(mainDir, BUILD_OPTIONS)) {
            SegmentTracker tracker = new SegmentTracker(db, writer.history(), segments);
            for (int i = 0; i < 4; i++) {
                writer.mixed(db, 25);
                tracker.flush();
            }
            tracker.compact();
            for (int i = 0; i < 2; i++) {
                writer.mixed(db, 20);
                tracker.flush();
            }
            writer.freshPuts(db, 10);
            tracker.flush();
            writer.mixed(db, 25);
        }
        BaseDatabase main = new BaseDatabase("main", mainDir, writer.history().copy(), Map.copyOf(segments));
        requireShape(main, 1);

        Path twoWalDir = root.resolve("two-wal");
        DirectoryCopy.copy(mainDir, twoWalDir);
        try (TalaDB db = TalaDB.open(twoWalDir, BUILD_OPTIONS)) {
            writer.mixed(db, 15);
        }
        BaseDatabase twoWal = new BaseDatabase("two-wal", twoWalDir, writer.history().copy(), Map.copyOf(segments));
        requireShape(twoWal, 2);
        return new Bases(main, twoWal);
    }

    /** The cases below rely on this shape; fail loudly if the engine no longer produces it. */
    private static void requireShape(BaseDatabase base, int walFiles) {
        List<Path> segments = base.liveSegments();
        if (segments.size() < 3 || !base.segmentWrites().keySet().equals(names(segments))) {
            throw new IllegalStateException(base.name() + ": expected the tracked segments " + base.segmentWrites().keySet()
                    + " on disk, found " + segments);
        }
        if (base.walFiles().size() != walFiles) {
            throw new IllegalStateException(base.name() + ": expected " + walFiles + " WAL files, found " + base.walFiles());
        }
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, base.layout());
        if (!verify.isClean()) {
            throw new IllegalStateException(base.name() + ": the undamaged database does not verify: " + verify.problems());
        }
    }

    private static Set<String> names(List<Path> files) {
        Set<String> out = new HashSet<>();
        files.forEach(p -> out.add(p.getFileName().toString()));
        return out;
    }
}
