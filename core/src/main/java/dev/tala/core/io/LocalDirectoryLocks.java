package dev.tala.core.io;

import dev.tala.core.error.DatabaseLockedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The LOCK files of database directories on the real file system: one writer (an exclusive
 * record lock, its pid written into the file) or any number of shared holders (a shared
 * record lock, nothing written), across processes and within this one.
 *
 * <p>POSIX record locks belong to the process, and closing any descriptor of the file drops
 * them; so this process keeps one table of the LOCK files it holds, and a second opener here is
 * answered from it before a descriptor is opened: refused, or (a reader beside readers) given a
 * share of the same descriptor. Keyed by the file's identity, not its path: a symlink or bind
 * mount is another path to the same LOCK file.
 */
final class LocalDirectoryLocks {
    /** The table's value for a LOCK file this process holds exclusively. */
    private static final Object EXCLUSIVE = new Object();
    /** Guarded by itself: EXCLUSIVE, or the {@link SharedHold} of this process's readers. */
    private static final Map<Object, Object> HELD = new HashMap<>();

    /**
     * How long a writer waits for shared holders (a {@code tala verify}, or a read-only open's
     * instant check), so that a service restarting while an operator's command reads does not fail.
     */
    private static final long READERS_WAIT_NANOS = 30_000_000_000L;

    private LocalDirectoryLocks() {
    }

    /** An exclusive lock on {@code lockFile}, created if missing; see {@link FileLayer#lock}. */
    static DirectoryLock exclusive(Path lockFile) throws IOException {
        long deadline = System.nanoTime() + READERS_WAIT_NANOS;
        while (true) {
            try {
                return tryExclusive(lockFile);
            } catch (DatabaseLockedException e) {
                if (!e.byReaders() || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static DirectoryLock tryExclusive(Path lockFile) throws IOException {
        Object key;
        synchronized (HELD) {
            key = identity(createIfMissing(lockFile), lockFile);
            Object held = HELD.get(key);
            if (held == EXCLUSIVE) {
                throw new DatabaseLockedException(lockFile, OptionalLong.of(ProcessHandle.current().pid()));
            }
            if (held != null) {
                throw DatabaseLockedException.heldByReaders(lockFile, true);
            }
            HELD.put(key, EXCLUSIVE);
        }
        FileChannel ch = null;
        try {
            ch = UninterruptibleChannels.openFile(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = tryLock(ch, false);
            if (lock == null) {
                throw refusal(ch, lockFile);
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            ch.force(true);
            return new ExclusiveLock(lockFile, key, ch, lock);
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                ch.close();
            }
            release(key);
            throw e;
        }
    }

    /** A shared lock on {@code lockFile}; see {@link FileLayer#lockShared}. */
    static DirectoryLock shared(Path lockFile) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(lockFile, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            try {
                // A holder with nothing to lock would not keep out a writer that comes later.
                attributes = createIfMissing(lockFile);
            } catch (FileSystemException cannotCreate) {
                // No permission, or a read-only file system: the lock holds nothing.
                return new Unlocked(lockFile);
            }
        }
        Object key = identity(attributes, lockFile);
        synchronized (HELD) {
            Object held = HELD.get(key);
            if (held == EXCLUSIVE) {
                throw new DatabaseLockedException(lockFile, OptionalLong.of(ProcessHandle.current().pid()));
            }
            SharedHold hold = (SharedHold) held;
            if (hold == null) {
                // Opened for reading only: a read-only file system, or a LOCK file this user may not write.
                FileChannel ch = UninterruptibleChannels.openFile(lockFile, StandardOpenOption.READ);
                FileLock lock;
                try {
                    lock = tryLock(ch, true);
                } catch (IOException | RuntimeException e) {
                    ch.close();
                    throw e;
                }
                if (lock == null) {
                    OptionalLong writer = readPid(ch);
                    ch.close();
                    throw new DatabaseLockedException(lockFile, writer);
                }
                hold = new SharedHold(ch, lock);
                HELD.put(key, hold);
            }
            hold.count++;
            return new SharedLock(lockFile, key, hold);
        }
    }

    /**
     * What to say when another process holds the lock: its pid from the file when a writer has
     * it, but readers write no pid, so a shared lock that can still be taken means readers.
     */
    private static DatabaseLockedException refusal(FileChannel ch, Path lockFile) throws IOException {
        FileLock probe = tryLock(ch, true);
        if (probe != null) {
            probe.release();
            return DatabaseLockedException.heldByReaders(lockFile, false);
        }
        return new DatabaseLockedException(lockFile, readPid(ch));
    }

    private static FileLock tryLock(FileChannel ch, boolean shared) throws IOException {
        try {
            return ch.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /**
     * Creates {@code lockFile} if absent. Creating it opens (and closes) a descriptor only when
     * no file was there; under HELD's monitor, so that no other thread of this process can lock
     * the new file before that descriptor is closed, which would drop its lock.
     */
    private static BasicFileAttributes createIfMissing(Path lockFile) throws IOException {
        synchronized (HELD) {
            try {
                Files.createFile(lockFile);
            } catch (FileAlreadyExistsException e) {
                // Left by an earlier opener, or held by a current one: both are expected.
            }
            return Files.readAttributes(lockFile, BasicFileAttributes.class);
        }
    }

    /** The device and inode of the file. */
    private static Object identity(BasicFileAttributes attributes, Path lockFile) throws IOException {
        Object key = attributes.fileKey();
        return key != null ? key : lockFile.toRealPath();
    }

    private static void release(Object key) {
        synchronized (HELD) {
            HELD.remove(key);
        }
    }

    private static OptionalLong readPid(FileChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(32);
            ch.read(buf, 0);
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** The descriptor and record lock this process's readers of one LOCK file share. */
    private static final class SharedHold {
        final FileChannel channel;
        final FileLock lock;
        /** Guarded by HELD. */
        int count;

        SharedHold(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }
    }

    private static final class SharedLock implements DirectoryLock {
        private final Path path;
        private final Object key;
        private final SharedHold hold;
        private boolean released;

        SharedLock(Path path, Object key, SharedHold hold) {
            this.path = path;
            this.key = key;
            this.hold = hold;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void close() throws IOException {
            synchronized (HELD) {
                if (released) {
                    return;
                }
                released = true;
                if (--hold.count > 0) {
                    return;
                }
                HELD.remove(key);
                try {
                    hold.lock.release();
                } finally {
                    hold.channel.close();
                }
            }
        }
    }

    /** A directory where no LOCK file exists or can be made by this user: nothing is held. */
    private record Unlocked(Path path) implements DirectoryLock {
        @Override
        public void close() {
        }
    }

    private static final class ExclusiveLock implements DirectoryLock {
        private final Path path;
        private final Object key;
        private final FileChannel channel;
        private final FileLock lock;
        private boolean released;

        ExclusiveLock(Path path, Object key, FileChannel channel, FileLock lock) {
            this.path = path;
            this.key = key;
            this.channel = channel;
            this.lock = lock;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void checkHeld() throws IOException {
            BasicFileAttributes now;
            try {
                now = Files.readAttributes(path, BasicFileAttributes.class);
            } catch (NoSuchFileException e) {
                throw new DirectoryLockLostException(path + " is gone: the database directory was deleted or moved while open;"
                        + " nothing more is created or deleted there", e);
            }
            // The key (device and inode) suffices: the lock's open channel keeps the inode from
            // being reused while it is held. Times would only add false alarms (touch, backup tools).
            if (!key.equals(identity(now, path))) {
                throw new DirectoryLockLostException(path + " is no longer the lock file this database took at open: the database"
                        + " directory was replaced while open; nothing more is created or deleted there");
            }
        }

        @Override
        public synchronized void close() throws IOException {
            if (released) {
                return;
            }
            released = true;
            try {
                lock.release();
                channel.close();
            } finally {
                release(key);
            }
        }
    }
}
