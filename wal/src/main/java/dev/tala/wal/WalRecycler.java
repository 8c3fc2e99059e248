package dev.tala.wal;

import dev.tala.core.concurrent.UninterruptibleWaits;
import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps up to {@code capacity} finished WAL files for reuse instead of deleting them, as
 * RocksDB's {@code recycle_log_file_num} does. A new WAL file grows with every write, and a
 * growing file costs the kernel a page allocation per 4 KiB and each force a journaled size
 * change; a reused file is overwritten in place, in pages the page cache already holds.
 *
 * <p>A retired file is renamed to {@code <number>.wal.free} (no WAL file number matches that
 * name), then zero-filled and forced on a background thread, then renamed to
 * {@code <number>.wal.ready}; only then may it be reused. The
 * zeros are what keeps replay exact: after the last record of a reused file comes nothing but
 * zeros, so a stale record from the file's previous life can never be read as a new one, and
 * damage is told from unused space the same way as in a new file (see WalFormat's ZERO_FILLED
 * flag). The second rename comes after the force, so a ready file's zeros are durable whatever
 * happened since, and the ready files an open finds are reused as they are; a free file's fill
 * may not have finished, so the free files it finds are zero-filled again ({@link #adoptSpare}).
 * Neither rename needs the directory synced: a lost one only leaves a file under its earlier
 * name, which is handled as that name says.
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
        } catch (IOException | RuntimeException e) {
            synchronized (this) {
                filling--;
            }
            throw e;
        }
        startZeroFill(free);
    }

    /**
     * Takes a spare file left by an earlier process: a ready one is kept for reuse as it is, a
     * free one (contents unknown) is zero-filled first; either is deleted when there is no room.
     * Nothing in it is needed.
     */
    void adoptSpare(Path spare) throws IOException {
        boolean isReady = DatabaseLayout.isReadyWalFile(spare);
        if (!isReady && !DatabaseLayout.isFreeWalFile(spare)) {
            throw new IllegalArgumentException(spare + " is not named like a free or ready WAL file");
        }
        synchronized (this) {
            if (closed || ready.size() + filling >= capacity) {
                fs.delete(spare);
                return;
            }
            if (isReady) {
                ready.addLast(spare);
                return;
            }
            filling++;
        }
        startZeroFill(spare);
    }

    /** Hands a free file, already counted in {@code filling}, to the zero-filling thread. */
    private void startZeroFill(Path free) {
        try {
            zeroFiller.execute(() -> zeroFill(free));
        } catch (RejectedExecutionException closedMeanwhile) {
            synchronized (this) {
                filling--;
            }
            deleteQuietly(free);
        }
    }

    /** A ready file (zeros durable) for {@link WalFile#reuse}, or null if there is none. */
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
        boolean forced = false;
        try (WritableFile out = fs.openForAppend(free)) {
            long size = out.size();
            ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK_BYTES);
            for (long at = 0; at < size && !closed; at += ZERO_CHUNK_BYTES) {
                zeros.clear().limit((int) Math.min(ZERO_CHUNK_BYTES, size - at));
                out.write(at, zeros);
            }
            if (!closed) {
                out.force();
                forced = true;
            }
        } catch (IOException | RuntimeException e) {
            // Nothing stored is at stake: the file's records are in segments. It is just not reused.
            LOG.warn("could not zero-fill {} for reuse ({}); deleting it", free, LoggedErrors.describe(e),
                    LoggedErrors.traceOf(e));
        }
        Path readyFile = forced ? markReady(free) : null;
        synchronized (this) {
            filling--;
            if (readyFile != null && !closed) {
                ready.addLast(readyFile);
            }
        }
        // A ready file left by a close stays on disk: the next open reuses it as it is.
        if (readyFile == null) {
            deleteQuietly(free);
        }
    }

    /** Renames a free file whose zeros were forced to its ready name; null if that failed. */
    private Path markReady(Path free) {
        long number = DatabaseLayout.freeWalNumber(free).orElseThrow();
        Path readyFile = free.resolveSibling(DatabaseLayout.readyWalFileName(number));
        try {
            fs.rename(free, readyFile);
            return readyFile;
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not rename {} to {} ({}); deleting it", free, readyFile, LoggedErrors.describe(e),
                    LoggedErrors.traceOf(e));
            return null;
        }
    }

    private void deleteQuietly(Path free) {
        try {
            fs.delete(free);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete {} ({}); the next open will", free, LoggedErrors.describe(e), LoggedErrors.traceOf(e));
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
            if (!UninterruptibleWaits.awaitTermination(zeroFiller, Duration.ofMinutes(1))) {
                LOG.warn("the WAL recycler's zero-fill did not finish within a minute of closing");
            }
        }
    }
}
