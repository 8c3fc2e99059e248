package dev.tala.tests.crash;

import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer of {@link ReadBesideWriterTest}: prints "opening", opens the database for writing
 * (recovering it), prints "ready", then runs one {@link Workload} per thread, appending
 * "B thread index" to its log before each write and "A thread index sequence" once it is
 * acknowledged. The log is not forced: the reader is another process on the same page cache,
 * and only a kill (never a power loss) strikes this process.
 * Arguments: DB_DIR LOG SEED THREADS DURABILITY WAL_RECYCLE_FILES MANIFEST_REWRITE_BYTES.
 */
public final class ReadBesideWriterChild {
    private ReadBesideWriterChild() {
    }

    static final int DIMENSION = 16;
    static final long MEMTABLE_BYTES = 64 * 1024;

    /** The options every writer opens with. */
    static Options options(Durability durability, int walRecycleFiles, long manifestRewriteBytes) {
        return Options.builder().dimension(DIMENSION).durability(durability).memtableBytes(MEMTABLE_BYTES)
                .backgroundCompaction(true).walRecycleFiles(walRecycleFiles)
                .manifestRewriteBytes(manifestRewriteBytes).targetSegmentBytes(512 * 1024).build();
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        Path logFile = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        int threads = Integer.parseInt(args[3]);
        Durability durability = Durability.parse(args[4]);
        int recycle = Integer.parseInt(args[5]);
        long rewrite = Long.parseLong(args[6]);
        System.out.println("opening");
        System.out.flush();
        TalaDB tala = TalaDB.open(db, options(durability, recycle, rewrite).toBuilder().createIfMissing(false).build());
        FileChannel log = FileChannel.open(logFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        System.out.println("ready");
        System.out.flush();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = new Thread(() -> {
                Workload workload = new Workload(KillChild.threadSeed(seed, thread), DIMENSION);
                try {
                    while (true) {
                        Workload.Write write = workload.next();
                        append(log, "B " + thread + " " + write.index() + "\n");
                        long seq = tala.write(write.batch());
                        append(log, "A " + thread + " " + write.index() + " " + seq + "\n");
                    }
                } catch (Throwable e) {
                    System.out.println("WRITER-FAILED " + thread + ": " + e);
                    e.printStackTrace(System.out);
                    System.out.flush();
                }
            }, "beside-writer-" + t);
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
    }

    private static void append(FileChannel log, String line) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
        synchronized (log) {
            while (b.hasRemaining()) {
                log.write(b);
            }
        }
    }
}
