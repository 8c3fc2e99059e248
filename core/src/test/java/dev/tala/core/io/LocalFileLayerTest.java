package dev.tala.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tala.core.error.DatabaseLockedException;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFileLayerTest {
    @TempDir
    Path dir;
    final FileLayer fs = LocalFileLayer.INSTANCE;

    @Test
    void appendPositionalWriteReadAndMap() throws IOException {
        Path p = dir.resolve("f");
        try (WritableFile f = fs.create(p)) {
            f.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
            f.write(1, ByteBuffer.wrap(new byte[] {9}));
            f.force();
            assertEquals(4, f.size());
        }
        try (WritableFile f = fs.openForAppend(p)) {
            f.append(ByteBuffer.wrap(new byte[] {5}));
        }
        ByteBuffer b = ByteBuffer.allocate(5);
        try (ReadableFile in = fs.openForRead(p)) {
            in.readFully(0, b);
            assertThrows(EOFException.class, () -> in.readFully(3, ByteBuffer.allocate(3)));
        }
        assertEquals(List.of((byte) 1, (byte) 9, (byte) 3, (byte) 4, (byte) 5),
                List.of(b.get(0), b.get(1), b.get(2), b.get(3), b.get(4)));
        MappedRegion m = fs.map(p);
        assertEquals(9, m.segment().get(ValueLayout.JAVA_BYTE, 1));
        m.close();
        assertThrows(IllegalStateException.class, () -> m.segment().get(ValueLayout.JAVA_BYTE, 1),
                "a closed mapping refuses access instead of crashing");
    }

    /**
     * A plain FileChannel used by a thread whose interrupt flag is set closes itself at the next
     * operation (ClosedByInterruptException), which would fail a WAL for every writer. The
     * layer's files ignore the interrupt and leave the flag set for the caller.
     */
    @Test
    void anInterruptedCallerNeitherClosesAFileNorLosesItsInterrupt() throws Exception {
        assertTrue(UninterruptibleChannels.supported(), "the test JVM runs with jvm.options");
        Path p = dir.resolve("f");
        try (WritableFile f = fs.create(p)) {
            f.append(ByteBuffer.wrap(new byte[] {1, 2}));
            Thread.currentThread().interrupt();
            try {
                f.append(ByteBuffer.wrap(new byte[] {3}));
                f.write(0, ByteBuffer.wrap(new byte[] {7}));
                f.force();
                assertEquals(3, f.size());
                try (ReadableFile in = fs.openForRead(p)) {
                    ByteBuffer b = ByteBuffer.allocate(3);
                    in.readFully(0, b);
                    assertArrayEquals(new byte[] {7, 2, 3}, b.array());
                }
                fs.syncDirectory(dir);
                assertTrue(Thread.currentThread().isInterrupted(), "the caller's interrupt is kept");
            } finally {
                Thread.interrupted();
            }
            f.append(ByteBuffer.wrap(new byte[] {4}));
            f.force();
        }
        assertArrayEquals(new byte[] {7, 2, 3, 4}, Files.readAllBytes(p));
    }

    @Test
    void preallocationGivesBlocksBeyondTheEndWithoutChangingLengthOrContents() throws Exception {
        assumeTrue(KeepSizeFallocate.available(), "fallocate is reachable on Linux only");
        Path p = dir.resolve("f");
        byte[] data = {1, 2, 3, 4, 5, 6, 7};
        try (WritableFile f = fs.create(p)) {
            f.append(ByteBuffer.wrap(data));
            f.force();
            long blocksBefore = allocatedBlocks(p);
            assumeTrue(f.preallocate(data.length, 4 << 20), "the temporary directory's file system cannot preallocate");
            assertEquals(data.length, f.size(), "length kept");
            assertTrue(allocatedBlocks(p) >= blocksBefore + (4 << 20) / 512,
                    "blocks before " + blocksBefore + ", after " + allocatedBlocks(p));
            f.append(ByteBuffer.wrap(data));
            assertEquals(2L * data.length, f.size());
        }
        byte[] expected = new byte[2 * data.length];
        System.arraycopy(data, 0, expected, 0, data.length);
        System.arraycopy(data, 0, expected, data.length, data.length);
        assertArrayEquals(expected, Files.readAllBytes(p), "contents: what was written, nothing more");
    }

    /**
     * Writeback is a hint: it answers true for a file with dirty pages and for one gone
     * meanwhile, changes neither length nor contents, and a refusal names file, range and reason.
     */
    /**
     * Nothing writes into a closed file's preallocated blocks: close gives back the ones past its
     * end, where before they stayed until the file was deleted (8 MiB per WAL file an open kept).
     */
    @Test
    void closeGivesBackThePreallocatedBlocksPastTheEnd() throws Exception {
        assumeTrue(KeepSizeFallocate.available(), "fallocate is reachable on Linux only");
        Path p = dir.resolve("f");
        byte[] data = new byte[10_000];
        java.util.Arrays.fill(data, (byte) 7);
        try (WritableFile f = fs.create(p)) {
            f.append(ByteBuffer.wrap(data));
            assumeTrue(f.preallocate(data.length, 4 << 20), "the temporary directory's file system cannot preallocate");
            f.append(ByteBuffer.wrap(data)); // into the preallocated blocks: these stay
            assertTrue(allocatedBlocks(p) >= (4 << 20) / 512, "preallocated: " + allocatedBlocks(p));
        }
        assertTrue(allocatedBlocks(p) < (1 << 20) / 512, "blocks left after close: " + allocatedBlocks(p));
        byte[] expected = new byte[2 * data.length];
        java.util.Arrays.fill(expected, (byte) 7);
        assertArrayEquals(expected, Files.readAllBytes(p), "length and contents as written");
    }

    @Test
    void startingWritebackChangesNothingAndARefusalSaysWhy() throws Exception {
        assumeTrue(WritebackHint.available(), "sync_file_range is reachable on Linux only");
        Path p = dir.resolve("f");
        byte[] data = new byte[3 << 20];
        java.util.Arrays.fill(data, (byte) 9);
        try (WritableFile f = fs.create(p)) {
            f.append(ByteBuffer.wrap(data));
            assertTrue(fs.startWriteback(p, 0, data.length));
            assertTrue(fs.startWriteback(p, 1 << 20, 1 << 20));
            assertEquals(data.length, f.size());
            IOException refused = assertThrows(IOException.class, () -> fs.startWriteback(p, 1, Long.MAX_VALUE));
            assertTrue(refused.getMessage().contains(p.toString()), refused.getMessage());
            assertTrue(refused.getMessage().contains("at offset 1"), refused.getMessage());
            assertTrue(refused.getMessage().contains("errno"), refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> fs.startWriteback(p, -1, 10));
            assertThrows(IllegalArgumentException.class, () -> fs.startWriteback(p, 0, 0));
        }
        assertArrayEquals(data, Files.readAllBytes(p));
        assertTrue(fs.startWriteback(dir.resolve("gone"), 0, 4096), "a file deleted meanwhile is no error");
    }

    @Test
    void tmpfsPreallocates() throws Exception {
        assumeTrue(KeepSizeFallocate.available(), "fallocate is reachable on Linux only");
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no /dev/shm here");
        Path p = Files.createTempFile(shm, "tala-preallocate", ".test");
        try (WritableFile f = fs.openForAppend(p)) {
            assertTrue(f.preallocate(0, 1 << 20), "tmpfs supports fallocate since Linux 3.5");
            assertEquals(0, f.size());
        } finally {
            Files.delete(p);
        }
    }

    @Test
    void aRefusedPreallocationNamesTheFileTheRangeAndTheReason() throws Exception {
        assumeTrue(KeepSizeFallocate.available(), "fallocate is reachable on Linux only");
        Path p = dir.resolve("f");
        try (WritableFile f = fs.create(p)) {
            f.append(ByteBuffer.wrap(new byte[] {1}));
            IOException e = assertThrows(IOException.class, () -> f.preallocate(1, 1L << 60));
            assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("1,152,921,504,606,846,976 bytes at offset 1"), e.getMessage());
            assertTrue(e.getMessage().contains("errno"), e.getMessage());
            assertEquals(1, f.size(), "nothing changed");
            assertThrows(IllegalArgumentException.class, () -> f.preallocate(-1, 10));
            assertThrows(IllegalArgumentException.class, () -> f.preallocate(0, 0));
        }
    }

    /** 512-byte blocks the file system gave {@code p}, as stat(1) reports them. */
    private static long allocatedBlocks(Path p) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%b", p.toString()).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes()).trim();
        assertEquals(0, stat.waitFor(), out);
        return Long.parseLong(out);
    }

    @Test
    void writeAtomicallyReplacesTheWholeFile() throws IOException {
        Path p = dir.resolve("OPTIONS");
        fs.writeAtomically(p, "one".getBytes());
        fs.writeAtomically(p, "two".getBytes());
        assertEquals("two", Files.readString(p));
        assertEquals(List.of(p), fs.list(dir));
    }

    @Test
    void listIsSortedAndSkipsDirectories() throws IOException {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("b"), "");
        Files.writeString(dir.resolve("a"), "");
        assertEquals(List.of(dir.resolve("a"), dir.resolve("b")), fs.list(dir));
        assertEquals(List.of(), fs.list(dir.resolve("missing")));
    }

    @Test
    void aSecondOpenerInThisProcessIsRefusedUntilRelease() throws IOException {
        Path lock = dir.resolve("LOCK");
        DirectoryLock held = fs.lock(lock);
        DatabaseLockedException e = assertThrows(DatabaseLockedException.class, () -> fs.lock(lock));
        assertEquals(ProcessHandle.current().pid(), e.holderPid().orElseThrow());
        assertTrue(e.getMessage().contains("database locked"), e.getMessage());
        held.close();
        fs.lock(lock).close();
    }

    /** What opens a path in the layer, for the test below. */
    private interface Opening {
        AutoCloseable open(Path p) throws IOException;
    }

    /**
     * A FIFO or a directory where a database file (LOCK, MANIFEST, a segment) should be is
     * refused with its path by every open: opening the FIFO waited for a writer that never
     * came (verify, stats and compact hung), and mapping a directory said "No such device".
     */
    @Test
    void aPathThatIsNotARegularFileIsRefusedWithoutWaiting() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo is needed to make a FIFO");
        Path directory = Files.createDirectories(dir.resolve("dir"));
        List<Opening> opens = List.of(fs::lock, fs::lockShared, fs::openForRead, fs::map, fs::openForAppend, fs::create);
        for (Path p : List.of(fifo, directory)) {
            for (int i = 0; i < opens.size(); i++) {
                Opening opening = opens.get(i);
                IOException e = assertThrows(IOException.class, () -> assertTimeoutPreemptively(
                        java.time.Duration.ofSeconds(20), () -> opening.open(p).close()), "open #" + i + " of " + p);
                String expected = p + ": not a regular file but " + (p == fifo ? "a pipe, socket or device" : "a directory");
                assertEquals(expected, dev.tala.core.error.StorageException.describe(e), "open #" + i);
            }
        }
    }

    /** A lock knows when its file was deleted, or replaced by another at the same path. */
    @Test
    void aLockNoticesItsFileGoneOrReplaced() throws IOException {
        Path lock = dir.resolve("LOCK");
        try (DirectoryLock held = fs.lock(lock)) {
            held.checkHeld();
            // Times are not identity: a touch or a backup tool resetting them is no replacement.
            Files.setLastModifiedTime(lock, java.nio.file.attribute.FileTime.fromMillis(0));
            held.checkHeld();
            Files.delete(lock);
            IOException gone = assertThrows(IOException.class, held::checkHeld);
            assertTrue(gone.getMessage().contains("is gone"), gone.getMessage());
            Files.writeString(lock, "other\n");
            IOException replaced = assertThrows(IOException.class, held::checkHeld);
            assertTrue(replaced.getMessage().contains("is no longer the lock file"), replaced.getMessage());
        }
        Path guarded = dir.resolve("g");
        Files.createDirectories(guarded);
        try (DirectoryLock held = fs.lock(guarded.resolve("LOCK"))) {
            FileLayer checking = new LockCheckingFileLayer(fs, held);
            checking.create(guarded.resolve("a")).close();
            Files.delete(guarded.resolve("LOCK"));
            assertThrows(IOException.class, () -> checking.create(guarded.resolve("b")));
            assertThrows(IOException.class, () -> checking.delete(guarded.resolve("a")));
            assertTrue(Files.exists(guarded.resolve("a")), "nothing deleted once the lock is gone");
            assertFalse(Files.exists(guarded.resolve("b")), "nothing created once the lock is gone");
        }
    }

    /**
     * A second opener through a symlink is the same LOCK file: refused without a descriptor of
     * its own, whose close would drop this process's lock and let another process in.
     */
    @Test
    void anOpenerThroughASymlinkIsRefusedAndLeavesTheLockHeld() throws Exception {
        Path db = Files.createDirectories(dir.resolve("db"));
        Path alias = Files.createSymbolicLink(dir.resolve("alias"), db);
        try (DirectoryLock held = fs.lock(db.resolve("LOCK"))) {
            DatabaseLockedException e = assertThrows(DatabaseLockedException.class, () -> fs.lock(alias.resolve("LOCK")));
            assertEquals(ProcessHandle.current().pid(), e.holderPid().orElseThrow());
            Process other = lockHolder(db.resolve("LOCK"));
            other.getOutputStream().close();
            assertTrue(other.waitFor(30, TimeUnit.SECONDS));
            assertEquals(1, other.exitValue(), "another process is still refused");
        }
        try (DirectoryLock viaAlias = fs.lock(alias.resolve("LOCK"))) {
            assertThrows(DatabaseLockedException.class, () -> fs.lock(db.resolve("LOCK")));
        }
    }

    private static Process lockHolder(Path lock) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), LockHolder.class.getName(),
                lock.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    @Test
    void aLockHeldByAnotherProcessNamesItsPid() throws Exception {
        Path lock = dir.resolve("LOCK");
        Process child = lockHolder(lock);
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("locked", out.readLine());
            DatabaseLockedException e = assertThrows(DatabaseLockedException.class, () -> fs.lock(lock));
            assertEquals(child.pid(), e.holderPid().orElseThrow());
            assertTrue(e.getMessage().contains("pid " + child.pid()), e.getMessage());
        } finally {
            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        }
        fs.lock(lock).close();
        assertFalse(child.isAlive());
    }
}
