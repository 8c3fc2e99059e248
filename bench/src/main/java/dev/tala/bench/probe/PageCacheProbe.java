package dev.tala.bench.probe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What handing log bytes to the OS costs when the file grows (every page is new to the page
 * cache) against overwriting a file whose pages are already cached, as a recycled WAL file
 * would be. Writes 1 GiB in 100 KiB chunks (64 records of 1.6 KB, the grouping of
 * {@code WalBenchmarks.appendBuffered}) each way, three times, and prints the cost per record.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.PageCacheProbe /dev/shm} (or a directory on the disk).
 */
public final class PageCacheProbe {
    private static final int RECORD = 1600;
    private static final int CHUNK = 64 * RECORD;
    private static final long TOTAL = 1L << 30;

    private PageCacheProbe() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        Path file = Files.createTempFile(dir, "page-cache-probe", ".wal");
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        try {
            for (int round = 1; round <= 3; round++) {
                Files.write(file, new byte[0]);
                double grow;
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    grow = nanosPerRecord(ch, chunk, false);
                }
                double overwrite;
                double overwriteClean;
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    overwrite = nanosPerRecord(ch, chunk, true);
                    ch.force(false);
                    overwriteClean = nanosPerRecord(ch, chunk, true);
                }
                System.out.printf("round %d: growing file %.0f ns per record, overwriting cached pages %.0f ns,"
                        + " overwriting them after a force %.0f ns%n", round, grow, overwrite, overwriteClean);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static double nanosPerRecord(FileChannel ch, ByteBuffer chunk, boolean inPlace) throws IOException {
        long start = System.nanoTime();
        for (long at = 0; at < TOTAL; at += CHUNK) {
            chunk.clear();
            if (inPlace) {
                ch.write(chunk, at);
            } else {
                ch.write(chunk);
            }
        }
        return (System.nanoTime() - start) / (TOTAL / (double) RECORD);
    }
}
