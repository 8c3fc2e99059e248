package dev.tala.bench.probe;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.WritableFile;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
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
 * A third way grows the file into blocks preallocated 8 MiB ahead of the writes without
 * changing its length ({@code WritableFile.preallocate}), as a WAL file not forced per write is.
 * Then it copies the same records into a read-write mapping of the file, once over its forced,
 * cached pages and once over a new sparse file of the same length: the cost of a log written
 * through a mapped file instead of {@code write}. Last, a new preallocated file whose mapping
 * is first made writable page by page ({@code madvise(MADV_POPULATE_WRITE)}, timed apart from
 * the copies), as a thread running ahead of a mapped log's writer would do: what the writer
 * saves, and what that thread pays for it.
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.PageCacheProbe /dev/shm} (or an existing directory on the disk).
 */
public final class PageCacheProbe {
    private static final int RECORD = 1600;
    private static final int CHUNK = 64 * RECORD;
    private static final long TOTAL = 1L << 30;
    /** From Linux's mman-common.h. */
    private static final int MADV_POPULATE_WRITE = 23;

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
                Files.write(file, new byte[0]);
                double preallocated;
                try (WritableFile out = LocalFileLayer.INSTANCE.openForAppend(file);
                        FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    preallocated = preallocatedNanosPerRecord(out, ch, chunk);
                }
                double overwrite;
                double overwriteClean;
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    overwrite = nanosPerRecord(ch, chunk, true);
                    ch.force(false);
                    overwriteClean = nanosPerRecord(ch, chunk, true);
                }
                double mappedClean;
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    ch.force(false);
                    mappedClean = mappedNanosPerRecord(ch);
                }
                Files.write(file, new byte[0]);
                double mappedSparse;
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                    raf.setLength(TOTAL);
                    mappedSparse = mappedNanosPerRecord(raf.getChannel());
                }
                Files.write(file, new byte[0]);
                double[] prefaulted;
                try (WritableFile out = LocalFileLayer.INSTANCE.openForAppend(file);
                        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    out.truncate(TOTAL);
                    out.preallocate(0, TOTAL);
                    prefaulted = prefaultedNanosPerRecord(ch);
                }
                System.out.printf("round %d: growing file %.0f ns per record, growing into preallocated blocks %.0f ns,"
                        + " overwriting cached pages %.0f ns, overwriting them after a force %.0f ns,"
                        + " mapped after a force %.0f ns, mapped sparse file %.0f ns,"
                        + " mapped preallocated file made writable first %.0f ns (making it writable: %.0f ns)%n",
                        round, grow, preallocated, overwrite, overwriteClean, mappedClean, mappedSparse,
                        prefaulted[0], prefaulted[1]);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static double mappedNanosPerRecord(FileChannel ch) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(RECORD);
            MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, TOTAL, arena);
            long start = System.nanoTime();
            for (long at = 0; at + RECORD <= TOTAL; at += RECORD) {
                MemorySegment.copy(source, 0, map, at, RECORD);
            }
            double nanos = (System.nanoTime() - start) / (TOTAL / (double) RECORD);
            // Written back outside the timing, so it does not slow the next phase's writes.
            map.force();
            return nanos;
        }
    }

    /**
     * Copies the records into a mapping of {@code ch} whose pages were all made writable
     * beforehand; returns the copies' cost per record and, second, the cost per record of
     * making the pages writable.
     */
    private static double[] prefaultedNanosPerRecord(FileChannel ch) throws IOException {
        Linker linker = Linker.nativeLinker();
        MethodHandle madvise = linker.downcallHandle(linker.defaultLookup().findOrThrow("madvise"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_INT));
        double records = TOTAL / (double) RECORD;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(RECORD);
            MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, TOTAL, arena);
            long start = System.nanoTime();
            int rc = (int) madvise.invokeExact(map, TOTAL, MADV_POPULATE_WRITE);
            if (rc != 0) {
                throw new IllegalStateException("madvise(MADV_POPULATE_WRITE) failed; Linux 5.14 or later needed");
            }
            long populated = System.nanoTime();
            for (long at = 0; at + RECORD <= TOTAL; at += RECORD) {
                MemorySegment.copy(source, 0, map, at, RECORD);
            }
            long copied = System.nanoTime();
            map.force();
            return new double[] {(copied - populated) / records, (populated - start) / records};
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Appends as {@link #nanosPerRecord} does, preallocating through {@code out} in the WAL's
     * steps (WalFile.PREALLOCATION_BYTES) ahead of the writes.
     */
    private static double preallocatedNanosPerRecord(WritableFile out, FileChannel ch, ByteBuffer chunk)
            throws IOException {
        long step = 8 << 20;
        long preallocatedTo = 0;
        long start = System.nanoTime();
        for (long at = 0; at < TOTAL; at += CHUNK) {
            if (at + CHUNK > preallocatedTo) {
                if (!out.preallocate(preallocatedTo, step)) {
                    throw new IllegalStateException(out.path() + ": this file system cannot preallocate");
                }
                preallocatedTo += step;
            }
            chunk.clear();
            ch.write(chunk, at);
        }
        return (System.nanoTime() - start) / (TOTAL / (double) RECORD);
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
