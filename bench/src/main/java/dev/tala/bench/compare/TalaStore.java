package dev.tala.bench.compare;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** TalaDB, with its defaults (64 MiB memtable, tiered compaction, f32 segments). */
final class TalaStore implements Store {
    private final Path dir;
    private final int walRecycleFiles;
    private TalaDB db;

    TalaStore(Path dir) {
        this(dir, Options.DEFAULT_WAL_RECYCLE_FILES);
    }

    TalaStore(Path dir, int walRecycleFiles) {
        this.dir = dir;
        this.walRecycleFiles = walRecycleFiles;
    }

    @Override
    public String name() {
        return "TalaDB";
    }

    @Override
    public String settings() {
        return "memtable 64 MiB (at most 2 frozen), tiered compaction with moves, f32 segments, reverse edges on"
                + (walRecycleFiles > 0 ? ", walRecycleFiles " + walRecycleFiles : "");
    }

    @Override
    public void open(boolean sync) {
        db = TalaDB.open(dir, Options.builder().dimension(BenchData.DIMENSION)
                .durability(sync ? Durability.sync() : Durability.none()).walRecycleFiles(walRecycleFiles).build());
    }

    @Override
    public void put(Intent intent) {
        db.put(intent);
    }

    @Override
    public boolean get(IntentId id) {
        return db.get(id).isPresent();
    }

    @Override
    public long scanCount(long fromNs, long toNs) {
        try (var s = db.snapshot()) {
            return s.scan(fromNs, toNs, i -> true);
        }
    }

    @Override
    public IntentId[] top10(float[] query) {
        List<SearchHit> hits = db.search(query, 10, SearchFilter.ALL);
        return hits.stream().map(h -> h.intent().id()).toArray(IntentId[]::new);
    }

    @Override
    public void compactFull() {
        db.compact(p -> { });
    }

    @Override
    public long bytesOnDisk() throws IOException {
        return du(dir);
    }

    static long du(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            long total = 0;
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                total += Files.size(p);
            }
            return total;
        }
    }

    @Override
    public void awaitQuiet() throws Exception {
        db.flush();
        // Quiet once the policy has nothing to pick and no compaction finished between two looks.
        long[] lastCompactions = {-1};
        QuietWait.await(name(), () -> {
            DbStats s = db.stats();
            if (s.failed()) {
                throw new IllegalStateException(name() + " failed in the background (see its log)");
            }
            boolean settled = s.pendingCompactionBytes() == 0 && s.compactions() == lastCompactions[0];
            lastCompactions[0] = s.compactions();
            return settled ? null : s.pendingCompactionBytes() + " bytes of compaction pending, "
                    + s.compactions() + " compactions done";
        });
    }

    @Override
    public WriteCounts writeCounts() {
        DbStats s = db.stats();
        return new WriteCounts(s.walBytesLogged(), s.walBytesLogged(), s.flushBytes(), s.compactionBytesWritten(),
                String.format("write amplification %.2f (tala stats: segment bytes per WAL byte)", s.writeAmplification()));
    }

    @Override
    public void close() {
        if (db != null) {
            db.close();
            db = null;
        }
    }
}
