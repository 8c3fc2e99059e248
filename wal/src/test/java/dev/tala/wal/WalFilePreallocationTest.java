package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A WAL file preallocates its blocks ahead of its writes, in steps, and never depends on it. */
class WalFilePreallocationTest {
    private static final long STEP = WalFile.PREALLOCATION_BYTES;

    @TempDir
    Path dir;

    /** What {@link PreallocationLog} answers when asked to preallocate. */
    private enum Answer { DONE, CANNOT, NO_SPACE }

    /**
     * Preallocations asked of the files this layer opens, as {position, length} pairs, over a
     * fault-injecting layer (which models a preallocation without making one, so these tests do
     * not depend on the file system under the temporary directory).
     */
    private final class PreallocationLog extends ForwardingFileLayer {
        final List<long[]> calls = new ArrayList<>();
        final Answer answer;

        PreallocationLog(Answer answer) {
            super(new FaultInjectingFileLayer(dir.resolve("stash-" + STASHES.incrementAndGet())));
            this.answer = answer;
        }

        @Override
        protected boolean beforePreallocate(Path file, long position, long length) throws IOException {
            calls.add(new long[] {position, length});
            return switch (answer) {
                case DONE -> true;
                case CANNOT -> false;
                case NO_SPACE -> throw new IOException("No space left on device (refused by the test)");
            };
        }
    }

    private static final AtomicInteger STASHES = new AtomicInteger();

    @Test
    void aGrowingFileIsPreallocatedOneStepAheadWithoutChangingItsLength() throws IOException {
        PreallocationLog fs = new PreallocationLog(Answer.DONE);
        ByteBuffer chunk = ByteBuffer.allocate(300_000);
        long end = WalFormat.FILE_HEADER_BYTES;
        try (WalFile file = WalFile.create(fs, dir, 1, true, null)) {
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
        PreallocationLog fs = new PreallocationLog(Answer.DONE);
        Path free = dir.resolve(DatabaseLayout.readyWalFileName(7));
        Files.write(free, new byte[1_000_000]);
        try (WalFile file = WalFile.reuse(fs, dir, free, 8, true, null)) {
            file.append(ByteBuffer.allocate(900_000));
            assertEquals(List.of(), fs.calls, "a reused file has its blocks");
            file.append(ByteBuffer.allocate(200_000));
            assertEquals(1, fs.calls.size());
            assertEquals(1_000_000, fs.calls.get(0)[0], "from the old length");
            assertEquals(STEP, fs.calls.get(0)[0] + fs.calls.get(0)[1], "to the first step boundary past the write");
        }
    }

    @Test
    void aWriteLongerThanAStepIsPreallocatedWholeBeforeItIsWritten() throws IOException {
        PreallocationLog fs = new PreallocationLog(Answer.DONE);
        try (WalFile file = WalFile.create(fs, dir, 1, true, null)) {
            file.append(ByteBuffer.allocate((int) (2 * STEP + 5)));
        }
        assertEquals(1, fs.calls.size());
        assertEquals(WalFormat.FILE_HEADER_BYTES, fs.calls.get(0)[0]);
        assertEquals(3 * STEP, fs.calls.get(0)[0] + fs.calls.get(0)[1], "to the step boundary past the write's end");
    }

    @Test
    void aReusedFileLongerThanAStepGrowsFromItsOwnLength() throws IOException {
        PreallocationLog fs = new PreallocationLog(Answer.DONE);
        Path free = dir.resolve(DatabaseLayout.readyWalFileName(3));
        long length = STEP + STEP / 2;
        Files.write(free, new byte[(int) length]);
        try (WalFile file = WalFile.reuse(fs, dir, free, 4, true, null)) {
            file.append(ByteBuffer.allocate((int) (length - WalFormat.FILE_HEADER_BYTES)));
            assertEquals(List.of(), fs.calls, "the reused length is all written, nothing past it");
            file.append(ByteBuffer.allocate(1));
        }
        assertEquals(1, fs.calls.size());
        assertEquals(length, fs.calls.get(0)[0]);
        assertEquals(2 * STEP, fs.calls.get(0)[0] + fs.calls.get(0)[1]);
    }

    @Test
    void aFileSystemThatCannotPreallocateIsAskedOnce() throws IOException {
        PreallocationLog fs = new PreallocationLog(Answer.CANNOT);
        try (WalFile file = WalFile.create(fs, dir, 1, true, null)) {
            for (int i = 0; i < 3; i++) {
                file.append(ByteBuffer.allocate((int) STEP));
            }
            assertEquals(WalFormat.FILE_HEADER_BYTES + 3 * STEP, Files.size(file.path()));
        }
        assertEquals(1, fs.calls.size());
    }

    @Test
    void aRefusedPreallocationIsNotAnErrorOfTheLogAndIsNotAskedAgain() throws IOException {
        PreallocationLog fs = new PreallocationLog(Answer.NO_SPACE);
        Path walDir = dir.resolve("wal");
        List<List<WalOp>> written = logRecords(fs, Durability.none(), walDir);
        assertEquals(1, fs.calls.size(), "asked once, then no more in this file");
        List<WalRecord> replayed = WalTestSupport.replayAll(LocalFileLayer.INSTANCE, walDir, WalRecoveryMode.ABSOLUTE_CONSISTENCY);
        assertEquals(written, replayed.stream().map(WalRecord::ops).toList());
    }

    @Test
    void aLogThatForcesEveryWriteDoesNotPreallocate() throws IOException {
        PreallocationLog fs = new PreallocationLog(Answer.DONE);
        logRecords(fs, Durability.sync(), dir.resolve("sync"));
        assertEquals(List.of(), fs.calls);
        PreallocationLog batch = new PreallocationLog(Answer.DONE);
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
