package dev.tala.wal;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps up to {@code capacity} finished WAL files for reuse instead of deleting them, as
 * RocksDB's {@code recycle_log_file_num} does. A new WAL file grows with every write, and a
 * growing file costs the kernel a page allocation per 4 KiB and each force a journaled size
 * change; a reused file is overwritten in place, in pages the page cache already holds.
 *
 * <p>A retired file is renamed to {@code <number>.wal.free} (no WAL file number matches that
 * name), then zero-filled and forced on a background thread; only then may it be reused. The
 * zeros are what keeps replay exact: after the last record of a reused file comes nothing but
 * zeros, so a stale record from the file's previous life can never be read as a new one, and
 * damage is told from unused space the same way as in a new file (see WalFormat's ZERO_FILLED
 * flag). Whether a free file's zero-fill finished is not known after a restart, so the free
 * files an open finds are zero-filled again ({@link #adoptFree}) before any is reused.
 */
final class WalRecycler implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(WalRecycler.class);
    private static final int ZERO_CHUNK_BYTES = 1 << 20;

    private final FileLayer fs;
    private final int capacity;
    private final ExecutorService zeroFiller;
    /** Guarded by this: zero-filled, forced files ready for reuse, how many are being filled, how many were taken. */
    private final Deque<Path> ready = new ArrayDeque<>();
    private int filling;
    private long taken;
    /** Also read without the lock by a zero-fill in progress, which gives up when it turns true. */
    private volatile boolean closed;

    WalRecycler(FileLayer fs, int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("WAL files to recycle must be >= 0, got " + capacity);
        }
        this.fs = fs;
        this.capacity = capacity;
        this.zeroFiller = capacity == 0 ? null : Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tala-wal-recycler");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Takes a WAL file whose records are all in segments: sets it aside for reuse when there is
     * room, else deletes it. Either way its name is gone when this returns; the caller syncs the
     * directory. (Should the rename be lost in a crash, the file reappears under its number,
     * below the MANIFEST's log number, and the next open deletes it as obsolete.)
     */
    void retire(Path walFile) throws IOException {
        long number = DatabaseLayout.walNumber(walFile).orElseThrow(
                () -> new IllegalArgumentException(walFile + " is not named like a WAL file"));
        synchronized (this) {
            if (closed || ready.size() + filling >= capacity) {
                fs.delete(walFile);
                return;
            }
            filling++;
        }
        Path free = walFile.resolveSibling(DatabaseLayout.freeWalFileName(number));
        try {
            fs.rename(walFile, free);
            zeroFiller.execute(() -> zeroFill(free));
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                filling--;
            }
            if (e instanceof RejectedExecutionException) {
                deleteQuietly(free); // closed meanwhile
                return;
            }
            throw e;
        }
    }

    /**
     * Takes a free file left by an earlier process ({@code <n>.wal.free}, contents unknown):
     * zero-fills it for reuse when there is room, else deletes it. Nothing in it is needed.
     */
    void adoptFree(Path free) throws IOException {
        synchronized (this) {
            if (closed || ready.size() + filling >= capacity) {
                fs.delete(free);
                return;
            }
            filling++;
        }
        try {
            zeroFiller.execute(() -> zeroFill(free));
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                filling--;
            }
            deleteQuietly(free); // closed meanwhile
        }
    }

    /** A zero-filled free file ready for {@link WalFile#reuse}, or null if there is none. */
    synchronized Path take() {
        Path free = ready.pollFirst();
        if (free != null) {
            taken++;
        }
        return free;
    }

    /** Files ready for reuse now (for statistics and tests). */
    synchronized int readyFiles() {
        return ready.size();
    }

    /** Files handed out for reuse since this log was created. */
    synchronized long filesTaken() {
        return taken;
    }

    private void zeroFill(Path free) {
        boolean done = false;
        try (WritableFile out = fs.openForAppend(free)) {
            long size = out.size();
            ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK_BYTES);
            for (long at = 0; at < size && !closed; at += ZERO_CHUNK_BYTES) {
                zeros.clear().limit((int) Math.min(ZERO_CHUNK_BYTES, size - at));
                out.write(at, zeros);
            }
            if (!closed) {
                out.force();
                done = true;
            }
        } catch (IOException | RuntimeException e) {
            // Nothing stored is at stake: the file's records are in segments. It is just not reused.
            LOG.warn("could not zero-fill {} for reuse; deleting it", free, e);
        }
        boolean keep;
        synchronized (this) {
            filling--;
            keep = done && !closed;
            if (keep) {
                ready.addLast(free);
            }
        }
        if (!keep) {
            deleteQuietly(free);
        }
    }

    private void deleteQuietly(Path free) {
        try {
            fs.delete(free);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete {} (the next open will)", free, e);
        }
    }

    /** Stops zero-filling; free files left behind are deleted by the next open. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        if (zeroFiller != null) {
            zeroFiller.shutdown();
            try {
                if (!zeroFiller.awaitTermination(1, TimeUnit.MINUTES)) {
                    LOG.warn("the WAL recycler's zero-fill did not finish within a minute of closing");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
