package dev.tala.bench.probe;

import dev.tala.core.io.FileTrees;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB's group commit on this machine, for reading {@link GroupCommitProbe} beside it: N
 * threads put 1.6 KB values with {@code sync = true} for four seconds (after one of warm-up),
 * and RocksDB's tickers say how many writes each WAL sync served. The log file is a new, growing
 * one, as in GroupCommitProbe without {@code reuse}.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.RocksGroupCommitProbe 16}.
 */
public final class RocksGroupCommitProbe {
    private static final int VALUE_BYTES = 1600;
    private static final long WRITE_BUFFER_BYTES = 64L * 1024 * 1024;

    static {
        RocksDB.loadLibrary();
    }

    private RocksGroupCommitProbe() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        Path dir = Files.createTempDirectory("rocks-group-commit");
        try (Statistics stats = new Statistics();
             Options options = new Options().setCreateIfMissing(true).setWriteBufferSize(WRITE_BUFFER_BYTES)
                     .setStatistics(stats);
             WriteOptions sync = new WriteOptions().setSync(true);
             RocksDB db = RocksDB.open(options, dir.toString())) {
            ProbeWriters writers = ProbeWriters.start(threads, false, writer -> {
                byte[] value = new byte[VALUE_BYTES];
                new SplittableRandom(writer).nextBytes(value);
                ByteBuffer key = ByteBuffer.allocate(16);
                return round -> {
                    key.putLong(0, round).putLong(8, writer);
                    db.put(sync, key.array(), value);
                    return 1;
                };
            });
            Thread.sleep(1000);
            long n0 = writers.acknowledged();
            long syncs0 = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
            long t0 = System.nanoTime();
            Thread.sleep(4000);
            long n1 = writers.acknowledged();
            long syncs1 = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
            double seconds = (System.nanoTime() - t0) / 1e9;
            writers.stop();
            long syncs = syncs1 - syncs0;
            System.out.printf("RocksDB %s, %d threads: %,.0f acknowledged writes/s, %.1f writes per WAL sync,"
                            + " %,.0f syncs/s%n", RocksDB.rocksdbVersion(), threads, (n1 - n0) / seconds,
                    (double) (n1 - n0) / syncs, syncs / seconds);
        } finally {
            FileTrees.delete(dir);
        }
    }
}
