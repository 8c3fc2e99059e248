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
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a second thread that prepares a new WAL file's pages ahead of the writer takes the
 * cost of new pages off the writer, on a machine with a core to spare. A new file's records cost
 * more than a reused file's because each 4 KiB page is new to the page cache (see
 * {@link PageCacheProbe}); these are the ways to move that cost elsewhere that were tried.
 * Each fills a new 64 MiB file (a WAL file's size) with 1.6 KB records, six rounds, and prints
 * the writer's time per record:
 * <ul>
 *   <li>{@code write/64}: a {@code write} per 64 records (the WAL's grouping), alone, and with a
 *       second thread writing zeros up to 4 MiB ahead of it;</li>
 *   <li>{@code write/1}: a {@code write} per record, what NONE durability acknowledges;</li>
 *   <li>{@code mapped}: each record copied into a shared mapping of a file given its blocks and
 *       length first (so a full disk cannot fault), alone, and with a second thread faulting the
 *       pages in for writing ({@code madvise(MADV_POPULATE_WRITE)}, Linux 5.14) 4 MiB ahead.</li>
 * </ul>
 * Run: {@code java @jvm.options -cp bench/target/classes:$(cat /tmp/benchcp.txt)
 * dev.tala.bench.probe.AheadOfTheWriterProbe /tmp}.
 */
public final class AheadOfTheWriterProbe {
    private static final int RECORD = 1600;
    private static final int GROUP = 64 * RECORD;
    private static final long FILE = 64L << 20;
    private static final long AHEAD = 4L << 20;
    private static final long HELPER_STEP = 1L << 20;
    private static final int MADV_POPULATE_WRITE = 23;

    private AheadOfTheWriterProbe() {
    }

    public static void main(String[] args) throws Throwable {
        Path dir = Path.of(args.length > 0 ? args[0] : System.getProperty("java.io.tmpdir"));
        for (int round = 1; round <= 6; round++) {
            System.out.printf("round %d: write/64 %.0f ns per record, with zeros ahead %.0f ns; write/1 %.0f ns;"
                            + " mapped %.0f ns, with pages populated ahead %.0f ns%n", round,
                    written(dir, GROUP, false), written(dir, GROUP, true), written(dir, RECORD, false),
                    mapped(dir, false), mapped(dir, true));
        }
    }

    /** Nanoseconds per record writing {@code FILE} bytes, {@code unit} bytes per write. */
    private static double written(Path dir, int unit, boolean zerosAhead) throws Exception {
        Path file = Files.createTempFile(dir, "ahead-probe", ".wal");
        ByteBuffer chunk = ByteBuffer.allocateDirect(unit);
        AtomicLong writerAt = new AtomicLong();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            Thread helper = zerosAhead ? Thread.ofPlatform().start(() -> writeZerosAhead(ch, writerAt)) : null;
            long start = System.nanoTime();
            for (long at = 0; at < FILE; ) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    at += ch.write(chunk, at);
                }
                writerAt.set(at);
            }
            return nanosPerRecord(start, helper);
        } finally {
            Files.delete(file);
        }
    }

    /** The writer's time per record since {@code start}, once the helper (if any) has finished. */
    private static double nanosPerRecord(long start, Thread helper) throws InterruptedException {
        double nanos = (System.nanoTime() - start) / (FILE / (double) RECORD);
        if (helper != null) {
            helper.join();
        }
        return nanos;
    }

    private static void writeZerosAhead(FileChannel ch, AtomicLong writerAt) {
        ByteBuffer zeros = ByteBuffer.allocateDirect((int) HELPER_STEP);
        try {
            // Only pages the writer has not reached, as far as this thread can tell; a race would
            // only put zeros over zeros, since the records here are zeros too.
            for (long at = AHEAD; at < FILE; at += HELPER_STEP) {
                while (at - writerAt.get() > AHEAD) {
                    Thread.onSpinWait();
                }
                if (at < writerAt.get() + HELPER_STEP) {
                    continue;
                }
                zeros.clear();
                while (zeros.hasRemaining()) {
                    ch.write(zeros, at + zeros.position());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Nanoseconds per record copying {@code FILE} bytes into a mapping of an allocated file. */
    private static double mapped(Path dir, boolean populateAhead) throws Throwable {
        Path file = Files.createTempFile(dir, "ahead-probe", ".wal");
        try (WritableFile out = LocalFileLayer.INSTANCE.openForAppend(file)) {
            if (!out.preallocate(0, FILE)) {
                throw new IllegalStateException(dir + ": this file system cannot preallocate");
            }
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(FILE); // into the blocks just allocated: nothing is left to allocate at fault time
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofShared()) {
            MemorySegment map = ch.map(FileChannel.MapMode.READ_WRITE, 0, FILE, arena);
            MemorySegment record = arena.allocate(RECORD);
            AtomicLong writerAt = new AtomicLong();
            AtomicLong populatedTo = new AtomicLong();
            Thread helper = null;
            if (populateAhead) {
                MethodHandle madvise = madvise();
                helper = Thread.ofPlatform().start(() -> populateAhead(madvise, map, writerAt, populatedTo));
                while (populatedTo.get() < AHEAD) {
                    Thread.onSpinWait();
                }
            }
            long start = System.nanoTime();
            for (long at = 0; at + RECORD <= FILE; at += RECORD) {
                MemorySegment.copy(record, 0, map, at, RECORD);
                writerAt.lazySet(at);
            }
            return nanosPerRecord(start, helper);
        } finally {
            Files.delete(file);
        }
    }

    private static void populateAhead(MethodHandle madvise, MemorySegment map, AtomicLong writerAt,
            AtomicLong populatedTo) {
        try {
            for (long at = 0; at < FILE; at += HELPER_STEP) {
                while (at - writerAt.get() > AHEAD) {
                    Thread.onSpinWait();
                }
                int result = (int) madvise.invokeExact(map.asSlice(at, HELPER_STEP), HELPER_STEP, MADV_POPULATE_WRITE);
                if (result != 0) {
                    throw new IllegalStateException("madvise(MADV_POPULATE_WRITE) failed at " + at);
                }
                populatedTo.set(at + HELPER_STEP);
            }
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle madvise() {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().findOrThrow("madvise"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    }
}
