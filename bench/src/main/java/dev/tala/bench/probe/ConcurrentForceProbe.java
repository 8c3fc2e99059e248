package dev.tala.bench.probe;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many write-plus-{@code fdatasync} rounds a second the disk completes when 1 to 4 threads
 * force the same file at once, each through its own open file: the ceiling a WAL with several
 * forces in flight could reach. Two layouts of the writes: each thread in a region of its own,
 * and all threads appending one after another at a shared position, as a log's groups do (the
 * page where one group ends is the page where the next begins). The file is zero-filled and
 * forced first, so every force overwrites blocks the file has. Three seconds per point, two
 * rounds. Run: {@code java -cp bench/target/classes dev.tala.bench.probe.ConcurrentForceProbe
 * [directory] [bytes per write, default 12800: a group of 8 records]}.
 */
public final class ConcurrentForceProbe {
    private static final long FILE_BYTES = 256L << 20;
    private static final long REGION_BYTES = FILE_BYTES / 4;

    private ConcurrentForceProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("java.io.tmpdir"));
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 12_800;
        Path file = Files.createTempFile(dir, "concurrent-force", ".dat");
        try {
            zeroFill(file);
            for (int round = 1; round <= 2; round++) {
                for (boolean shared : new boolean[] {false, true}) {
                    StringBuilder line = new StringBuilder(String.format("round %d, %s, %d B:", round,
                            shared ? "shared append position" : "own regions", bytes));
                    for (int threads = 1; threads <= 4; threads++) {
                        line.append(String.format(" %d threads %,.0f forces/s;", threads,
                                forcesPerSecond(file, threads, bytes, shared)));
                    }
                    System.out.println(line);
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void zeroFill(Path file) throws Exception {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long at = 0; at < FILE_BYTES; at += zeros.capacity()) {
                zeros.clear();
                ch.write(zeros, at);
            }
            ch.force(false);
        }
    }

    private static double forcesPerSecond(Path file, int threads, int bytes, boolean shared) throws Exception {
        AtomicLong forces = new AtomicLong();
        AtomicLong sharedPosition = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] workers = new Thread[threads];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            long regionStart = t * REGION_BYTES;
            workers[t] = new Thread(() -> {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ByteBuffer data = ByteBuffer.allocateDirect(bytes);
                    long offset = 0;
                    while (!stop.get()) {
                        long at;
                        if (shared) {
                            at = sharedPosition.getAndAdd(bytes) % (FILE_BYTES - bytes);
                        } else {
                            at = regionStart + offset;
                            offset = (offset + bytes) % (REGION_BYTES - bytes);
                        }
                        data.clear();
                        ch.write(data, at);
                        ch.force(false);
                        forces.incrementAndGet();
                    }
                } catch (Exception e) {
                    failure[0] = e;
                }
            });
            workers[t].start();
        }
        Thread.sleep(500);
        long before = forces.get();
        long start = System.nanoTime();
        Thread.sleep(3000);
        double rate = (forces.get() - before) * 1e9 / (System.nanoTime() - start);
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException("a forcing thread failed", failure[0]);
        }
        return rate;
    }
}
