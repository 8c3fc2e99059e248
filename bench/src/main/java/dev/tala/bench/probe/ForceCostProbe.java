package dev.tala.bench.probe;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.WritableFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a write plus {@code fdatasync} costs on this disk when the write grows the file and when
 * it overwrites blocks the file already has, for one WAL record (1.6 KB) and for a group of 16,
 * and when it grows the file into blocks preallocated without changing its length
 * ({@code WritableFile.preallocate}). Two rounds of 3,000 each. Run: {@code java @jvm.options
 * -cp bench/target/classes:$(cat /tmp/benchcp.txt) dev.tala.bench.probe.ForceCostProbe [directory]}.
 */
public final class ForceCostProbe {
    private static final int WRITES = 3000;

    private ForceCostProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("java.io.tmpdir"));
        Path file = Files.createTempFile(dir, "force-cost", ".dat");
        try {
            for (int round = 1; round <= 2; round++) {
                for (int size : new int[] {1600, 16 * 1600}) {
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                        ByteBuffer record = ByteBuffer.allocateDirect(size);
                        long growing = microsPerForcedWrite(ch, record);
                        ch.position(0);
                        long inPlace = microsPerForcedWrite(ch, record);
                        ch.truncate(0);
                        try (WritableFile out = LocalFileLayer.INSTANCE.openForAppend(file)) {
                            if (!out.preallocate(0, (long) WRITES * size)) {
                                throw new IllegalStateException(file + ": this file system cannot preallocate");
                            }
                        }
                        long preallocated = microsPerForcedWrite(ch, record);
                        System.out.printf("round %d, %,d bytes: growing the file %d µs, in place %d µs,"
                                + " growing into preallocated blocks %d µs%n", round, size, growing, inPlace, preallocated);
                    }
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static long microsPerForcedWrite(FileChannel ch, ByteBuffer record) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < WRITES; i++) {
            record.clear();
            while (record.hasRemaining()) {
                ch.write(record);
            }
            ch.force(false);
        }
        return (System.nanoTime() - start) / 1000 / WRITES;
    }
}
