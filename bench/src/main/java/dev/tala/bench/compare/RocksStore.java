package dev.tala.bench.compare;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.vector.Metric;
import dev.tala.segment.vector.Query;
import dev.tala.segment.vector.TopK;
import dev.tala.segment.vector.VectorKernels;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB as its user would hold intents: key = the 16 id bytes (time-ordered, so a time range
 * is a seek), value = a compact binary intent with the embedding at a fixed offset. Search is
 * what a RocksDB user has to write: iterate every value and score it, here with the same SIMD
 * kernel TalaDB uses, so the comparison is about the storage layout, not the arithmetic.
 */
final class RocksStore implements Store {
    static {
        RocksDB.loadLibrary();
    }

    private static final int EMBEDDING_OFFSET = 16;
    private static final long WRITE_BUFFER_BYTES = 64L * 1024 * 1024;

    private final Path dir;
    private final boolean statistics;
    private final int recycleLogFiles;
    private Statistics stats;
    private Options options;
    private RocksDB db;
    private WriteOptions writeOptions;

    /**
     * With {@code statistics}, RocksDB keeps its tickers (a small cost, so only when asked);
     * {@code recycleLogFiles} is its {@code recycle_log_file_num}.
     */
    RocksStore(Path dir, boolean statistics, int recycleLogFiles) {
        this.dir = dir;
        this.statistics = statistics;
        this.recycleLogFiles = recycleLogFiles;
    }

    @Override
    public String name() {
        return "RocksDB " + RocksDB.rocksdbVersion();
    }

    @Override
    public String settings() {
        return "defaults, write_buffer_size 64 MiB (same memory budget as TalaDB's memtable), WAL on, "
                + "sync per write when TalaDB syncs; value = compact binary intent"
                + (recycleLogFiles > 0 ? "; recycle_log_file_num " + recycleLogFiles : "");
    }

    @Override
    public void open(boolean sync) throws Exception {
        options = new Options().setCreateIfMissing(true).setWriteBufferSize(WRITE_BUFFER_BYTES)
                .setRecycleLogFileNum(recycleLogFiles);
        if (statistics) {
            stats = new Statistics();
            options.setStatistics(stats);
        }
        db = RocksDB.open(options, dir.toString());
        writeOptions = new WriteOptions().setSync(sync);
    }

    @Override
    public void put(Intent intent) throws Exception {
        db.put(writeOptions, intent.id().toBytes(), encode(intent));
    }

    @Override
    public boolean get(IntentId id) throws Exception {
        byte[] v = db.get(id.toBytes());
        return v != null && decode(id, v) != null;
    }

    @Override
    public long scanCount(long fromNs, long toNs) {
        long fromMillis = fromNs / 1_000_000L;
        long count = 0;
        try (RocksIterator it = db.newIterator()) {
            // Ids carry their millisecond in the top 48 bits, so seek there and stop past the range.
            it.seek(IntentId.of(fromMillis << 16, 0).toBytes());
            for (; it.isValid(); it.next()) {
                ByteBuffer v = ByteBuffer.wrap(it.value()).order(ByteOrder.LITTLE_ENDIAN);
                long ts = v.getLong(0);
                if (ts >= toNs && (ByteBuffer.wrap(it.key()).getLong() >>> 16) > toNs / 1_000_000L) {
                    break;
                }
                if (ts >= fromNs && ts < toNs && decode(IntentId.fromBytes(it.key()), it.value()) != null) {
                    count++; // decoded, as TalaDB's scan hands out whole intents
                }
            }
        }
        return count;
    }

    @Override
    public IntentId[] top10(float[] vector) {
        Query query = Metric.COSINE.query(vector);
        TopK top = new TopK(10);
        java.util.Map<Long, IntentId> kept = new java.util.HashMap<>();
        long row = 0;
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next(), row++) {
                MemorySegment value = MemorySegment.ofArray(it.value());
                long dotNorm = VectorKernels.dotAndNorm(EmbeddingType.F32, query, value, EMBEDDING_OFFSET);
                if (top.offer(Metric.COSINE.score(dotNorm, query, EmbeddingType.F32, value, EMBEDDING_OFFSET), row)) {
                    kept.put(row, IntentId.fromBytes(it.key()));
                }
            }
        }
        return top.sorted().stream().map(h -> kept.get(h.key())).toArray(IntentId[]::new);
    }

    @Override
    public void compactFull() throws Exception {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        }
        db.compactRange();
    }

    @Override
    public long bytesOnDisk() throws java.io.IOException {
        return TalaStore.du(dir);
    }

    @Override
    public void awaitQuiet() throws Exception {
        try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
            db.flush(f);
        }
        QuietWait.await(name(), () -> {
            if (db.getLongProperty("rocksdb.background-errors") > 0) {
                throw new IllegalStateException(name() + " failed in the background (rocksdb.background-errors)");
            }
            long pending = db.getLongProperty("rocksdb.compaction-pending");
            long running = db.getLongProperty("rocksdb.num-running-compactions");
            return pending == 0 && running == 0 ? null : "compaction pending " + pending + ", running " + running;
        });
    }

    @Override
    public WriteCounts writeCounts() throws Exception {
        if (stats == null) {
            throw new IllegalStateException("opened without statistics");
        }
        return new WriteCounts(stats.getTickerCount(TickerType.BYTES_WRITTEN), stats.getTickerCount(TickerType.WAL_FILE_BYTES),
                stats.getTickerCount(TickerType.FLUSH_WRITE_BYTES), stats.getTickerCount(TickerType.COMPACT_WRITE_BYTES),
                compactionStatsSum(db.getProperty("rocksdb.stats")));
    }

    /** The W-Amp of the "Sum" row of RocksDB's compaction-stats table, with the row quoted. */
    static String compactionStatsSum(String stats) {
        String header = null;
        for (String line : stats.split("\n")) {
            String t = line.trim();
            if (t.startsWith("Level") && t.contains("W-Amp")) {
                header = t;
            } else if (header != null && t.startsWith("Sum")) {
                String[] names = header.split("\\s+");
                String[] values = t.split("\\s+");
                for (int i = 0; i < names.length; i++) {
                    // The Size column prints as two tokens ("1.50 GB") in the rows, one in the header.
                    if (names[i].equals("W-Amp") && i + 1 < values.length) {
                        return "W-Amp " + values[i + 1] + " (rocksdb.stats compaction table, Sum row: " + t + ")";
                    }
                }
            }
        }
        return "no compaction-stats table in rocksdb.stats";
    }

    @Override
    public void close() {
        if (db != null) {
            db.close();
            writeOptions.close();
            options.close();
            if (stats != null) {
                stats.close();
            }
            db = null;
        }
    }

    static byte[] encode(Intent i) {
        byte[] command = i.command().getBytes(StandardCharsets.UTF_8);
        int size = EMBEDDING_OFFSET + 4 * i.dimension() + 8 + 8 + 4 + 4 + command.length + 4 + 21 * i.edges().size();
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(i.timestampNs()).put(i.status().code()).put((byte) (i.outcome() == null ? 0 : 1))
                .putShort((short) 0).putFloat(i.confidence());
        for (int k = 0; k < i.dimension(); k++) {
            b.putFloat(i.embedding(k));
        }
        b.putLong(i.contextHash());
        b.putLong(i.outcome() == null ? 0 : i.outcome().latencyNs()).putInt(i.outcome() == null ? 0 : i.outcome().exitCode());
        b.putInt(command.length).put(command);
        b.putInt(i.edges().size());
        for (Edge e : i.edges()) {
            b.putLong(e.target().mostSignificantBits()).putLong(e.target().leastSignificantBits())
                    .put(e.relation().code()).putFloat(e.weight());
        }
        return b.array();
    }

    static Intent decode(IntentId id, byte[] value) {
        ByteBuffer b = ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN);
        long ts = b.getLong();
        Status status = Status.ofCode(b.get());
        boolean hasOutcome = b.get() != 0;
        b.getShort();
        float confidence = b.getFloat();
        float[] embedding = new float[BenchData.DIMENSION];
        for (int k = 0; k < embedding.length; k++) {
            embedding[k] = b.getFloat();
        }
        long context = b.getLong();
        long latency = b.getLong();
        int exit = b.getInt();
        byte[] command = new byte[b.getInt()];
        b.get(command);
        int n = b.getInt();
        List<Edge> edges = new ArrayList<>(n);
        for (int e = 0; e < n; e++) {
            edges.add(new Edge(IntentId.of(b.getLong(), b.getLong()), Relation.ofCode(b.get()), b.getFloat()));
        }
        return Intent.builder().id(id).timestampNs(ts).status(status).confidence(confidence).embedding(embedding)
                .contextHash(context).outcome(hasOutcome ? new Outcome(latency, exit) : null)
                .command(new String(command, StandardCharsets.UTF_8)).edges(edges).build();
    }
}
