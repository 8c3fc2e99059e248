package dev.tala.bench.jmh;

import dev.tala.bench.compare.BenchData;
import dev.tala.bench.compare.WalFill;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WalRecord;
import dev.tala.wal.WalRecordCodec;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * WAL benchmarks on 1.6 KB intent records (384-d f32 embedding, command, two edges).
 *
 * <ul>
 *   <li>{@code encode}: the record encoding alone (framing, payload, CRC32C) into a reused
 *       buffer: the part of an append that is the log's own CPU work.</li>
 *   <li>{@code appendBuffered}: the log's append (sequence number, chronicle-bytes encoding,
 *       CRC32C), handed to the OS once per 64 records: the cost per entry to compare with TALA's
 *       Rust WAL (730 ns), in one file that grows through the whole iteration.</li>
 *   <li>{@code appendFile}: the same, one 64 MiB WAL file per invocation, in a new file or (with
 *       {@code reuse}) a reused, zero-filled one.</li>
 *   <li>{@code appendToOs} / {@code plainChannelToOs}: every record handed to the OS before
 *       returning (what NONE durability acknowledges), once through the WAL (chronicle-bytes
 *       buffer, file layer) and once through the simplest alternative written for this
 *       comparison (the same record layout encoded into a ByteBuffer, FileChannel.write).</li>
 *   <li>{@code sync1}, {@code sync4}, {@code sync16}: SYNC writes from 1, 4 and 16 threads (group
 *       commit); throughput is ops/s across threads.</li>
 *   <li>{@code syncVirtual}: SYNC writes from 1 or 16 virtual threads, as a service that runs
 *       each request on its own virtual thread would make them.</li>
 *   <li>{@code forceLatency}: a 4 KiB write and fdatasync, the disk's own floor.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WalBenchmarks {
    static final int RECORDS = 1024;

    /** Pre-built records so the benchmarks time logging, not intent construction. */
    @State(Scope.Benchmark)
    public static class Records {
        List<List<WalOp>> ops;
        List<Intent> intents;
        final AtomicInteger next = new AtomicInteger();

        @Setup(Level.Trial)
        public void build() {
            intents = BenchData.generate(RECORDS, 7).intents();
            ops = intents.stream().map(i -> List.<WalOp>of(new WalOp.Put(i))).toList();
        }

        List<WalOp> nextOps() {
            return ops.get(next.getAndIncrement() & (RECORDS - 1));
        }
    }

    /**
     * A WAL in a fresh temporary directory. {@code disk} is the temporary directory;
     * {@code memory} is /dev/shm (tmpfs), which takes the disk's bandwidth out of the figure and
     * leaves the log's own cost plus the write system call.
     */
    @State(Scope.Benchmark)
    public abstract static class LogState {
        Path dir;
        WriteAheadLog wal;
        long file = 1;

        @Param({"memory", "disk"})
        String medium;

        void open(Durability durability) throws IOException {
            Path shm = Path.of("/dev/shm");
            dir = medium.equals("memory") && Files.isWritable(shm) ? Files.createTempDirectory(shm, "wal-bench")
                    : Files.createTempDirectory("wal-bench");
            wal = WriteAheadLog.create(LocalFileLayer.INSTANCE, dir, file, 0, durability, reuse() ? 1 : 0);
        }

        /** Whether finished files are zero-filled and reused. */
        abstract boolean reuse();

        /**
         * Finishes the current file and retires it (deleted, or kept for reuse). A kept file is
         * zero-filled in the background; this waits for that here, outside the timed part,
         * rather than let it compete with what is timed next.
         */
        void rotateAndRetire() throws IOException, InterruptedException {
            long old = wal.rotate(++file);
            wal.retire(dir.resolve(DatabaseLayout.walFileName(old)));
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (reuse() && wal.stats().freeFiles() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            wal.close();
            FileTrees.delete(dir);
        }
    }

    /** A log rotated to a new file after every iteration to bound its size. */
    public abstract static class Log extends LogState {
        /**
         * Keeps the files small: a new file (and the old one retired) after every iteration,
         * outside the timed part, because a rotation forces the file it finishes, and that
         * force belongs to the memtable switch, not to an append.
         */
        @TearDown(Level.Iteration)
        public void rotate() throws IOException, InterruptedException {
            rotateAndRetire();
        }
    }

    public static class NoSyncLog extends Log {
        @Override
        boolean reuse() {
            return false;
        }

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            open(Durability.none());
        }
    }

    public static class SyncLog extends Log {
        /**
         * Records that make a reused file longer than any iteration's SYNC writes: 450 MB at
         * 1.72 KB each, where 100,000 writes/s for the two seconds of an iteration log 344 MB.
         */
        static final int REUSED_FILE_RECORDS = 256 * 1024;

        /**
         * {@code true}: each iteration's records overwrite a reused, zero-filled file that is
         * longer than they are. Two such files take turns: one is written while the other is
         * zero-filled between iterations. (Files sized by earlier iterations' writes, as at first,
         * were outgrown whenever an iteration ran faster than the one that sized its file, and
         * the rest of its forces grew the file, which costs 1.5–2x as much.)
         */
        @Param({"false", "true"})
        boolean reuse;

        @Override
        boolean reuse() {
            return reuse;
        }

        @Setup(Level.Trial)
        public void setUp() throws IOException, InterruptedException {
            open(Durability.sync());
            if (reuse) {
                List<Intent> intents = BenchData.generate(RECORDS, 7).intents();
                for (int f = 0; f < 2; f++) {
                    WalFill.fill(wal, intents, REUSED_FILE_RECORDS);
                    rotateAndRetire();
                }
            }
        }
    }

    /**
     * A NONE-durability log that moves to a new file after every invocation of
     * {@link #appendFile}, as the engine does at each memtable switch; with {@code reuse} the
     * new file is the one retired two invocations before, zero-filled and of the same length.
     */
    public static class FileLog extends LogState {
        @Param({"false", "true"})
        boolean reuse;

        @Override
        boolean reuse() {
            return reuse;
        }

        @Setup(Level.Trial)
        public void open() throws IOException {
            open(Durability.none());
        }

        @TearDown(Level.Invocation)
        public void rotate() throws IOException, InterruptedException {
            rotateAndRetire();
        }
    }

    /** Records per {@link #appendFile} invocation: about 64 MiB, the WAL file of one default memtable. */
    static final int FILE_RECORDS = 40_000;

    /**
     * One WAL file's worth of 1.6 KB appends, handed to the OS once per 64 records as in
     * {@link #appendBuffered}; the score is per record. Between invocations, outside the timed
     * part, the file is finished (forced) and retired, and the log moves to a new or reused file.
     */
    @Benchmark
    @OperationsPerInvocation(FILE_RECORDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    public long appendFile(Records r, FileLog log) {
        long s = 0;
        for (int i = 0; i < FILE_RECORDS; i++) {
            s = log.wal.append(r.nextOps());
            if ((s & 63) == 0) {
                log.wal.awaitDurable(s);
            }
        }
        log.wal.awaitDurable(s);
        return s;
    }

    /** A reused off-heap buffer for {@link #encode}. */
    @State(Scope.Thread)
    public static class EncodeBuffer {
        final Bytes<ByteBuffer> out = Bytes.elasticByteBuffer(1 << 16);
        long sequence;

        @TearDown(Level.Trial)
        public void release() {
            out.releaseLast();
        }
    }

    /** Only the record encoding (framing, payload, both CRC32Cs) into a buffer: the log's CPU part of an append. */
    @Benchmark
    public int encode(Records r, EncodeBuffer b) {
        b.out.clear();
        return WalRecordCodec.encode(new WalRecord(++b.sequence, r.nextOps()), b.out);
    }

    @Benchmark
    public long appendBuffered(Records r, NoSyncLog log) throws IOException {
        long s = log.wal.append(r.nextOps());
        if ((s & 63) == 0) {
            log.wal.awaitDurable(s);
        }
        return s;
    }

    @Benchmark
    public long appendToOs(Records r, NoSyncLog log) throws IOException {
        long s = log.wal.append(r.nextOps());
        log.wal.awaitDurable(s);
        return s;
    }

    /** The plain path: the WAL's record layout encoded with ByteBuffer, written with FileChannel. */
    @State(Scope.Benchmark)
    public static class PlainChannel {
        Path file;
        FileChannel channel;
        final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long sequence;
        long written;

        @Param({"memory", "disk"})
        String medium;

        @Setup(Level.Trial)
        public void open() throws IOException {
            Path shm = Path.of("/dev/shm");
            file = medium.equals("memory") && Files.isWritable(shm) ? Files.createTempFile(shm, "plain-wal", ".wal")
                    : Files.createTempFile("plain-wal", ".wal");
            channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        }

        long append(Intent intent) throws IOException {
            buffer.clear();
            int start = buffer.position();
            buffer.position(start + 21);
            int payloadStart = buffer.position();
            buffer.putLong(intent.id().mostSignificantBits()).putLong(intent.id().leastSignificantBits())
                    .putLong(intent.timestampNs()).putLong(intent.contextHash()).putFloat(intent.confidence())
                    .put(intent.status().code()).put((byte) 0);
            byte[] command = intent.command().getBytes(StandardCharsets.UTF_8);
            buffer.putInt(command.length).put(command).putInt(intent.dimension());
            buffer.asFloatBuffer().put(intent.embedding());
            buffer.position(buffer.position() + 4 * intent.dimension());
            buffer.putInt(intent.edges().size());
            for (Edge e : intent.edges()) {
                buffer.putLong(e.target().mostSignificantBits()).putLong(e.target().leastSignificantBits())
                        .put(e.relation().code()).putFloat(e.weight());
            }
            int length = buffer.position() - payloadStart;
            buffer.putInt(start, length).put(start + 4, (byte) 1).putLong(start + 5, ++sequence);
            CRC32C crc = new CRC32C();
            crc.update(buffer.slice(start + 4, 9));
            crc.update(buffer.slice(payloadStart, length));
            buffer.putInt(start + 13, (int) crc.getValue());
            CRC32C header = new CRC32C();
            header.update(buffer.slice(start, 17));
            buffer.putInt(start + 17, (int) header.getValue());
            buffer.flip();
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            if ((written += length) > 64L << 20) {
                channel.truncate(0);
                channel.position(0);
                written = 0;
            }
            return sequence;
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            channel.close();
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    public long plainChannelToOs(Records r, PlainChannel plain) throws IOException {
        return plain.append(r.intents.get(r.next.getAndIncrement() & (RECORDS - 1)));
    }

    private static long syncWrite(Records r, SyncLog log) {
        long s = log.wal.append(r.nextOps());
        log.wal.awaitDurable(s);
        return s;
    }

    @Benchmark
    @Threads(1)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long sync1(Records r, SyncLog log) {
        return syncWrite(r, log);
    }

    @Benchmark
    @Threads(4)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long sync4(Records r, SyncLog log) {
        return syncWrite(r, log);
    }

    @Benchmark
    @Threads(16)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public long sync16(Records r, SyncLog log) {
        return syncWrite(r, log);
    }

    /** Writes per {@link #syncVirtual} invocation, shared out evenly among its writers. */
    static final int VIRTUAL_WRITES = 2048;

    /** How many virtual threads {@link #syncVirtual} writes from. */
    @State(Scope.Benchmark)
    public static class VirtualWriters {
        @Param({"1", "16"})
        int count;
    }

    /**
     * Each invocation starts {@code count} virtual threads that make {@link #VIRTUAL_WRITES}
     * SYNC writes between them and waits for them all. JMH cannot run the benchmark threads
     * themselves as virtual threads here: with {@code -Djmh.executor=VIRTUAL} the workers spin
     * while one of them runs the iteration's tear-down (the log rotation), and on two cores two
     * spinning workers hold both carriers, so the rotating one never resumes. An invocation
     * spends tens of milliseconds in forces, so starting its threads adds little; the last
     * writers to finish share their forces with fewer others, so the figure is slightly low.
     */
    @Benchmark
    @Threads(1)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(VIRTUAL_WRITES)
    public void syncVirtual(Records r, SyncLog log, VirtualWriters writers)
            throws InterruptedException, ExecutionException {
        int each = VIRTUAL_WRITES / writers.count;
        List<Future<?>> done = new ArrayList<>(writers.count);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int w = 0; w < writers.count; w++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        syncWrite(r, log);
                    }
                }));
            }
        }
        for (Future<?> f : done) {
            f.get();
        }
    }

    /** One 4 KiB write and fdatasync of a small file, over and over: the force latency of this disk. */
    @State(Scope.Thread)
    public static class ForceFile {
        Path file;
        FileChannel channel;
        final ByteBuffer page = ByteBuffer.allocateDirect(4096);

        @Setup(Level.Trial)
        public void open() throws IOException {
            file = Files.createTempFile("force", ".bin");
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            channel.close();
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void forceLatency(ForceFile f) throws IOException {
        f.page.clear();
        f.channel.write(f.page, 0);
        f.channel.force(false);
    }
}
