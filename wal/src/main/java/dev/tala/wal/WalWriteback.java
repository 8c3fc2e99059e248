package dev.tala.wal;

import dev.tala.core.concurrent.UninterruptibleWaits;
import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.FileLayer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts writeback of a WAL file's records every {@link #STEP_BYTES} in a log that does not force
 * every write ({@link FileLayer#startWriteback}, as RocksDB's {@code wal_bytes_per_sync}), on a
 * thread of its own. Without it a NONE or BATCH log leaves a whole file's worth of records in
 * the page cache until the memtable switch forces the file, and that force, made with the
 * writers' mutex held, wrote up to 64 MiB while every writer waited: 56–67 ms per force here
 * (docs/PERFORMANCE.md, stop 29). Started a MiB at a time, the writing is mostly done by then.
 *
 * <p>The hint runs on its own thread because starting writeback is not free for the caller (the
 * file system maps and submits the pages: 35–55 µs per MiB here), and the caller would be the
 * leader of a write group. It changes nothing a crash keeps, so a hint that is late, lost at
 * close, or refused costs only speed: the first refusal ends the hints for this log.
 */
final class WalWriteback implements Closeable {
    /** How many bytes of a file are written between two hints. */
    static final long STEP_BYTES = 1 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(WalWriteback.class);
    /** Longer than any one hint takes: it only starts I/O. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);

    private final FileLayer fs;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "tala-wal-writeback");
        t.setDaemon(true);
        return t;
    });
    /** False once the file layer said it cannot, or refused: nothing more is asked. */
    private volatile boolean active = true;

    WalWriteback(FileLayer fs) {
        this.fs = fs;
    }

    /** Asks, without waiting, for writeback of {@code [from, to)} of {@code file}. */
    void request(Path file, long from, long to) {
        if (!active) {
            return;
        }
        try {
            thread.execute(() -> start(file, from, to));
        } catch (RejectedExecutionException closed) {
            // The log is closing: the force at close writes what is left.
        }
    }

    private void start(Path file, long from, long to) {
        if (!active) {
            return;
        }
        try {
            if (!fs.startWriteback(file, from, to - from)) {
                active = false;
            }
        } catch (IOException | RuntimeException e) {
            active = false;
            LOG.warn("could not start writeback of WAL file {} ({}); the next force writes it all", file,
                    LoggedErrors.describe(e), LoggedErrors.traceOf(e));
        }
    }

    /**
     * Drops the hints not yet started and waits for the one running, if any: after close no
     * thread of the log opens its files.
     */
    @Override
    public void close() {
        active = false;
        thread.shutdownNow();
        UninterruptibleWaits.awaitTermination(thread, CLOSE_WAIT);
    }
}
