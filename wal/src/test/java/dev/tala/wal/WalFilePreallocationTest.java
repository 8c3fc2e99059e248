package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A WAL file preallocates its blocks ahead of its writes, in steps, and never depends on it. */
class WalFilePreallocationTest {
    private static final long STEP = WalFile.PREALLOCATION_BYTES;

    @TempDir
    Path dir;

    /** Preallocations asked of the files this layer opens, as {position, length} pairs. */
    private static final class PreallocationLog extends ForwardingFileLayer {
        final List<long[]> calls = new ArrayList<>();
        final boolean refuse;

        PreallocationLog(FileLayer inner, boolean refuse) {
            super(inner);
            this.refuse = refuse;
        }

        @Override
        protected void beforePreallocate(Path file, long position, long length) throws IOException {
            calls.add(new long[] {position, length});
            if (refuse) {
                throw new IOException("No space left on device (refused by the test)");
            }
        }
    }

    @Test
    void aGrowingFileIsPreallocatedOneStepAheadWithoutChangingItsLength() throws IOException {
        PreallocationLog fs = new PreallocationLog(LocalFileLayer.INSTANCE, false);
        ByteBuffer chunk = ByteBuffer.allocate(300_000);
        long end = WalFormat.FILE_HEADER_BYTES;
        try (WalFile file = WalFile.create(fs, dir, 1, true)) {
            for (int i = 0; i < 60; i++) {
                file.append(chunk.clear());
                end += chunk.capacity();
                long preallocatedTo = fs.calls.stream().mapToLong(c -> c[0] + c[1]).max().orElse(0);
                assertTrue(preallocatedTo >= end && preallocatedTo - end < STEP,
                        "after " + end + " bytes, preallocated to " + preallocatedTo);
            }
            assertEquals(end, Files.size(file.path()), "the file is as long as what was written");
        }
        long expectedFrom = WalFormat.FILE_HEADER_BYTES;
        for (long[] call : fs.calls) {
            assertEquals(expectedFrom, call[0], "each preallocation starts where the last ended");
            assertEquals(0, (call[0] + call[1]) % STEP, "each ends on a step boundary");
            expectedFrom = call[0] + call[1];
        }
        assertEquals(Math.ceilDiv(end, STEP), fs.calls.size(), "one call per step");
    }

    @Test
    void aReusedFileIsPreallocatedOnlyOnceItOutgrowsItsLength() throws IOException {
        PreallocationLog fs = new PreallocationLog(LocalFileLayer.INSTANCE, false);
        Path free = dir.resolve(DatabaseLayout.readyWalFileName(7));
        Files.write(free, new byte[1_000_000]);
        try (WalFile file = WalFile.reuse(fs, dir, free, 8, true)) {
            file.append(ByteBuffer.allocate(900_000));
            assertEquals(List.of(), fs.calls, "a reused file has its blocks");
            file.append(ByteBuffer.allocate(200_000));
            assertEquals(1, fs.calls.size());
            assertEquals(1_000_000, fs.calls.get(0)[0], "from the old length");
            assertEquals(STEP, fs.calls.get(0)[0] + fs.calls.get(0)[1], "to the first step boundary past the write");
        }
    }

    @Test
    void aRefusedPreallocationIsNotAnErrorOfTheLogAndIsNotAskedAgain() throws IOException {
        PreallocationLog fs = new PreallocationLog(LocalFileLayer.INSTANCE, true);
        Path walDir = dir.resolve("wal");
        List<List<WalOp>> written = logRecords(fs, Durability.none(), walDir);
        assertEquals(1, fs.calls.size(), "asked once, then no more in this file");
        List<WalRecord> replayed = WalTestSupport.replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY);
        assertEquals(written, replayed.stream().map(WalRecord::ops).toList());
    }

    @Test
    void aLogThatForcesEveryWriteDoesNotPreallocate() throws IOException {
        PreallocationLog fs = new PreallocationLog(LocalFileLayer.INSTANCE, false);
        logRecords(fs, Durability.sync(), dir.resolve("sync"));
        assertEquals(List.of(), fs.calls);
        PreallocationLog batch = new PreallocationLog(LocalFileLayer.INSTANCE, false);
        logRecords(batch, Durability.batch(Duration.ofMillis(5)), dir.resolve("batch"));
        assertEquals(1, batch.calls.size(), "BATCH preallocates");
    }

    /** Logs 20 records, each waited for, into a new log in {@code walDir}. */
    private static List<List<WalOp>> logRecords(FileLayer fs, Durability durability, Path walDir) throws IOException {
        RandomIntents gen = new RandomIntents(11, WalTestSupport.DIM);
        List<List<WalOp>> written = new ArrayList<>();
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, durability)) {
            for (int i = 0; i < 20; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                wal.awaitDurable(wal.append(ops));
                written.add(ops);
            }
            assertFalse(wal.hasFailed());
        }
        return written;
    }
}
