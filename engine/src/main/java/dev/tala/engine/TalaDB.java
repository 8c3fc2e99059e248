package dev.tala.engine;

import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.CompactionStats;
import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.error.OperationInterruptedException;
import dev.tala.core.error.ReadOnlyException;
import dev.tala.core.error.StorageException;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.engine.query.TimeRangeScan;
import dev.tala.core.model.Status;
import dev.tala.engine.compact.Compactor;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.open.DatabaseOpener;
import dev.tala.engine.open.ReadOnlyOpener;
import dev.tala.engine.view.PinnedView;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.recovery.RecoveryReport;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.engine.write.StoredEmbeddings;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An open TalaDB database: the API a service embeds.
 *
 * <pre>{@code
 * try (TalaDB db = TalaDB.open(Path.of("tala-data"))) {
 *     db.put(intent);
 *     db.attachOutcome(intent.id(), Status.SUCCESS, new Outcome(1_200_000, 0));
 *     Optional<Intent> back = db.get(intent.id());
 * }
 * }</pre>
 *
 * Thread-safe: any number of threads may write and read at once; readers never wait for
 * writers, flushes or compactions. Every write method returns the sequence number that made
 * the change, after it is as durable as the database's {@link Durability} promises.
 */
public final class TalaDB implements AutoCloseable {
    private final DatabaseOpener.Opened db;
    private volatile boolean closed;
    private final Object closing = new Object();

    private TalaDB(DatabaseOpener.Opened db) {
        this.db = db;
    }

    /** Opens (or creates) the database in {@code dir} with default options. */
    public static TalaDB open(Path dir) {
        return open(dir, Options.defaults());
    }

    public static TalaDB open(Path dir, Options options) {
        TalaDB db = new TalaDB(DatabaseOpener.open(Objects.requireNonNull(dir, "dir"),
                Objects.requireNonNull(options, "options")));
        if (db.db.needsFlush()) {
            // Replay skipped damaged records that are still in the WAL: move what was recovered into
            // a segment now, so those files become obsolete before anything reads them again.
            try {
                db.flush();
            } catch (RuntimeException e) {
                try {
                    db.close();
                } catch (RuntimeException closeFailed) {
                    e.addSuppressed(closeFailed); // the flush's failure is what stopped the open
                }
                throw e;
            }
        }
        return db;
    }

    /**
     * Opens the existing database in {@code dir} for reading only, as RocksDB's
     * {@code OpenForReadOnly} does: nothing in the directory is created, changed or deleted, so
     * it works on a read-only file system and leaves a damaged database exactly as it found it.
     * Recovery judges the files as a writable open would (the same errors, in the same recovery
     * mode) but repairs nothing; {@link #recoveryReport()} lists each repair left undone. The WAL
     * is replayed into memory, so reads see everything a writable open would.
     *
     * <p>A read-only database takes no lock: any number of them, in this process or others, may
     * be open beside each other and beside a writer, and a writer may open the directory
     * meanwhile. Each reads the database as it was when it opened (a writer's later
     * writes are not seen; reopen to see them). An open beside a writer that flushes or compacts
     * meanwhile is made again ({@link ReadOnlyOpener}). Writes, flushes and compactions throw
     * {@link ReadOnlyException}.
     */
    public static TalaDB openReadOnly(Path dir) {
        return openReadOnly(dir, Options.defaults());
    }

    /**
     * {@link #openReadOnly(Path)} with options: the file layer, the WAL recovery mode, the
     * memtable size replay fills memtables to, and a dimension or embedding type to check.
     */
    public static TalaDB openReadOnly(Path dir, Options options) {
        return new TalaDB(ReadOnlyOpener.open(Objects.requireNonNull(dir, "dir"),
                Objects.requireNonNull(options, "options")));
    }

    /** Whether this database was opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return db.readOnly();
    }

    public Path directory() {
        return db.layout().dir();
    }

    public int dimension() {
        return db.stored().dimension();
    }

    public EmbeddingType embeddingType() {
        return db.stored().embeddingType();
    }

    public Durability durability() {
        return db.durability();
    }

    /** What opening the database found and repaired. */
    public RecoveryReport recoveryReport() {
        return db.report();
    }

    // ---- writes -----------------------------------------------------------------------------

    /**
     * Inserts {@code intent}, or replaces every field of the intent with its id. A database of a
     * lossy embedding type (f16, bf16, int8) stores the embedding as that type's nearest value,
     * which every read returns from then on ({@link StoredEmbeddings}).
     */
    public long put(Intent intent) {
        checkIntent(intent);
        return write(List.of(new WalOp.Put(intent)));
    }

    /** Deletes the intent with this id (a no-op if there is none). */
    public long delete(IntentId id) {
        return write(List.of(new WalOp.Delete(Objects.requireNonNull(id, "id"))));
    }

    /**
     * Sets the status and outcome of an existing intent. The WAL records the whole new version
     * (as large as a put of the intent), so that a restart restores it as it was acknowledged.
     * The new version is stored like a put, in the database's embedding type: an intent that a
     * compaction had written to a cold level of another type (see
     * {@link Options.Builder#coldEmbeddingType}) reads back its cold approximation rounded to
     * the database's type, and is quantized again when a compaction takes it to the cold level.
     *
     * @param outcome the outcome, or null to clear it
     * @throws dev.tala.core.error.InvalidIntentException if no live intent has this id
     */
    public long attachOutcome(IntentId id, Status status, Outcome outcome) {
        return write(List.of(new WalOp.AttachOutcome(Objects.requireNonNull(id, "id"),
                Objects.requireNonNull(status, "status"), outcome)));
    }

    /** Applies every write of {@code batch} atomically. */
    public long write(WriteBatch batch) {
        checkOpen();
        List<WalOp> ops = Objects.requireNonNull(batch, "batch").ops();
        // Refused even when empty, as every other write is on a read-only database, or on one
        // that failed (read-only until reopened).
        refuseIfReadOnly("a write");
        if (ops.isEmpty()) {
            db.failure().checkWritable();
            return db.visible().get();
        }
        for (WalOp op : ops) {
            if (op instanceof WalOp.Put p) {
                checkIntent(p.intent());
            }
        }
        return write(ops);
    }

    private long write(List<WalOp> ops) {
        checkOpen();
        refuseIfReadOnly("a write");
        refuseInCompactionListener("a write");
        return db.writes().write(StoredEmbeddings.of(StoredEmbeddings.owned(ops), embeddingType()));
    }

    /**
     * A compaction's progress listener runs on the compaction's thread, which holds the
     * compaction lock, and the lock is reentrant. A write there can stall until a compaction runs
     * (too many level-0 segments), which waits for that lock; a flush waits for work that may
     * stall the same way; a compaction would run over the running one's inputs (whose outputs
     * would then be listed over inputs already gone); close would unmap the segments the
     * compaction reads further down this very stack. Each is refused with a clear error instead;
     * reads are fine.
     */
    private void refuseInCompactionListener(String what) {
        if (db.compactor() != null && db.compactor().compactingOnThisThread()) {
            throw new IllegalStateException(what + " was made from a compaction's progress listener, on the thread"
                    + " running that compaction; throw from the listener to abort the compaction, or make the call"
                    + " once compact returns");
        }
    }

    private void refuseIfReadOnly(String what) {
        if (db.readOnly()) {
            throw new ReadOnlyException("the database in " + db.layout().dir() + " was opened read-only; "
                    + what + " is refused");
        }
    }

    private void checkIntent(Intent intent) {
        Objects.requireNonNull(intent, "intent").requireWritable(dimension());
    }

    // ---- reads ------------------------------------------------------------------------------

    public Optional<Intent> get(IntentId id) {
        try (Snapshot s = ownSnapshot()) {
            return s.get(id);
        }
    }

    /**
     * At most {@code limit} live intents with {@code from <= timestamp < to}, oldest first.
     *
     * @throws IllegalArgumentException if {@code to < from} (bounds below 0 count as 0), or {@code limit < 0}
     */
    public List<Intent> scan(long from, long to, int limit) {
        try (Snapshot s = ownSnapshot()) {
            return s.scan(from, to, limit);
        }
    }

    /** The {@code k} live intents most similar to {@code vector}; see {@link Snapshot#search}. */
    public List<SearchHit> search(float[] vector, int k, SearchFilter filter) {
        try (Snapshot s = ownSnapshot()) {
            return s.search(vector, k, filter);
        }
    }

    /** Edges from {@code id} to live intents. */
    public List<Hop> edgesFrom(IntentId id) {
        try (Snapshot s = ownSnapshot()) {
            return s.edgesFrom(id);
        }
    }

    /** Edges from live intents to {@code id}, ordered by source id (each source's edges in its order). */
    public List<Hop> edgesTo(IntentId id) {
        try (Snapshot s = ownSnapshot()) {
            return s.edgesTo(id);
        }
    }

    /** Breadth-first traversal; see {@link Snapshot#traverse}. */
    public List<Hop> traverse(IntentId start, int depth, Set<Relation> relations, Direction direction) {
        try (Snapshot s = ownSnapshot()) {
            return s.traverse(start, depth, relations, direction);
        }
    }

    /** A consistent view of the database as of now; close it when done. */
    public Snapshot snapshot() {
        return pin(true);
    }

    /**
     * A snapshot for one read of this class, closed before it returns: it needs no cleaner
     * registration, which every get would otherwise pay for (a lock shared by all threads).
     */
    private Snapshot ownSnapshot() {
        return pin(false);
    }

    private Snapshot pin(boolean releaseIfDropped) {
        checkOpen();
        PinnedView pinned = db.live().pin(db.visible());
        return new Snapshot(pinned, dimension(), releaseIfDropped);
    }

    // ---- maintenance ------------------------------------------------------------------------

    /**
     * Forces every write acknowledged so far to disk, without a flush: a durability point for
     * NONE and BATCH durability (RocksDB's {@code SyncWAL}). Under SYNC every write is forced
     * before it is acknowledged, and this returns at once.
     *
     * @throws dev.tala.core.error.DatabaseFailedException if the database had failed before (close still
     *     forces a healthy log), or the force fails; the database is then failed, as after any
     *     failed force, and a reopen recovers what was forced before
     */
    public void syncWal() {
        checkOpen();
        refuseIfReadOnly("syncWal()");
        db.failure().checkWritable();
        db.wal().sync();
    }

    /** Writes everything in memory to segments and waits until it is there. */
    public void flush() {
        checkOpen();
        refuseIfReadOnly("flush()");
        refuseInCompactionListener("flush()");
        // Wait for what was in memory at the call only: frozen memtables flush oldest first, so
        // once the newest of them is flushed, all are. Waiting for none to be left at all never ends
        // while other threads keep freezing new ones. Waiting until it was no longer pending took
        // a close() between two looks, which drops pending memtables unflushed, for a flush.
        MemTable last = db.writes().freezeActive();
        db.flusher().schedule();
        while (last != null && !last.isFlushed()) {
            db.failure().checkWritable();
            checkOpen(); // close() stops the flusher, so waiting on would never end
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OperationInterruptedException("interrupted while waiting for a flush (the database stays open)");
            }
        }
        db.failure().checkWritable();
    }

    /**
     * Compacts every segment into one sorted run, dropping tombstones and shadowed versions.
     * Writes continue meanwhile; reads never wait. {@code progress} is called on the thread
     * running the compaction: it may read the database, and may throw to abort the compaction,
     * but a write, flush, compaction or close from it is refused (IllegalStateException), since
     * each could wait for the compaction it is called from.
     *
     * @return what the compaction did, or empty if there was nothing to compact
     */
    public Optional<CompactionStats> compact(CompactionProgress.Listener progress) {
        Objects.requireNonNull(progress, "progress");
        return compacting(compactor -> compactor.compactAll(progress));
    }

    /** {@link #compact(CompactionProgress.Listener)} without progress reports. */
    public Optional<CompactionStats> compact() {
        return compact(CompactionProgress.Listener.NONE);
    }

    /** Runs, now and on this thread, the compactions the policy would run in the background. */
    public List<CompactionStats> compactPending(CompactionProgress.Listener progress) {
        Objects.requireNonNull(progress, "progress");
        return compacting(compactor -> compactor.compactPending(progress));
    }

    private interface CompactionCall<T> {
        T run(Compactor compactor) throws IOException;
    }

    /** Flushes, runs {@code call} on this thread, and turns what it throws into the API's errors. */
    private <T> T compacting(CompactionCall<T> call) {
        checkOpen();
        refuseIfReadOnly("a compaction");
        refuseInCompactionListener("a compaction");
        flush();
        try {
            return call.run(db.compactor());
        } catch (InterruptedIOException e) {
            // Stopped between rows or while rate-limited: the job deleted its outputs and never
            // touched its inputs, so the database is as it was and stays writable.
            if (closed) {
                throw new DatabaseClosedException("the database in " + db.layout().dir()
                        + " was closed during the compaction; its segments are as they were");
            }
            Thread.currentThread().interrupt();
            throw new OperationInterruptedException("the compaction was interrupted; its segments are as they were");
        } catch (IOException e) {
            db.failure().fail("compaction failed", e);
            throw new StorageException("compaction failed", e);
        }
    }

    /**
     * The live segments, newest first: what the MANIFEST lists and reads use now (RocksDB's live
     * files). Compaction inputs leave this list when the compaction commits, before their
     * files are deleted.
     */
    public List<SegmentMeta> liveSegments() {
        checkOpen();
        List<SegmentMeta> live = SegmentHandle.metas(db.live().segments());
        checkOpen(); // a close meanwhile empties the live state: refuse rather than list nothing
        return live;
    }

    /**
     * Compacts the smallest run of segments covering every one that overlaps [from, to). An
     * empty range ({@code from == to}, or one below 0, where bounds count as 0 as a scan's do)
     * holds nothing to compact: nothing is flushed or compacted, as a scan of it returns nothing.
     *
     * @throws IllegalArgumentException if {@code to < from}, as a scan's range is refused
     */
    public Optional<CompactionStats> compactRange(long from, long to, CompactionProgress.Listener progress) {
        checkOpen();
        refuseIfReadOnly("a compaction");
        Objects.requireNonNull(progress, "progress");
        TimeRangeScan.requireOrdered(from, to);
        if (Math.max(from, 0) >= Math.max(to, 0)) {
            return Optional.empty();
        }
        return compacting(compactor -> compactor.compactRange(from, to, progress));
    }

    public DbStats stats() {
        checkOpen();
        long intents;
        try (Snapshot s = ownSnapshot()) {
            intents = s.countIntents();
        }
        long segmentBytes = 0;
        long memtableBytes;
        int frozen;
        int segments;
        ReadView view = db.live().acquire();
        try {
            for (SegmentHandle h : view.segments()) {
                segmentBytes += h.meta().fileSize();
            }
            segments = view.segments().size();
            memtableBytes = view.active().approximateBytes();
            for (MemTable m : view.immutables()) {
                memtableBytes += m.approximateBytes();
            }
            frozen = view.immutables().size();
        } finally {
            view.release();
        }
        int walFiles = 0;
        long walBytes = 0;
        try {
            for (Path p : db.fs().list(db.layout().walDir())) {
                if (DatabaseLayout.walNumber(p).isPresent()) {
                    try {
                        walBytes += db.fs().size(p);
                        walFiles++;
                    } catch (NoSuchFileException retiredMeanwhile) {
                        // A flush deleted or renamed it after the listing: it is no longer a WAL file.
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot list " + db.layout().walDir(), e);
        }
        DbStats stats;
        if (db.readOnly()) {
            stats = new DbStats(intents, segments, segmentBytes, db.live().level0Count(), memtableBytes, frozen,
                    walFiles, walBytes, db.visible().get(), 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    Compactor.pendingBytes(db.policy(), db.live()), 0, 0, 0, 0, 0, 0, 0, 0, false);
        } else {
            stats = writerStats(intents, segments, segmentBytes, memtableBytes, frozen, walFiles, walBytes);
        }
        // Read in several steps: a close meanwhile empties the live state (no level-0 segments,
        // nothing pending) under the view pinned before it. Refused rather than mixed.
        checkOpen();
        return stats;
    }

    private DbStats writerStats(long intents, int segments, long segmentBytes, long memtableBytes, int frozen,
                                int walFiles, long walBytes) {
        var w = db.writes().stats();
        var f = db.flusher().stats();
        var c = db.compactor().stats();
        WriteAheadLog.Stats wal = db.wal().stats();
        double writeAmplification = wal.bytesLogged() == 0 ? 0
                : (double) (f.bytesWritten() + c.bytesWritten()) / wal.bytesLogged();
        return new DbStats(intents, segments, segmentBytes, db.live().level0Count(), memtableBytes, frozen, walFiles,
                walBytes, db.visible().get(), w.writes(), w.stalls(), w.stallNanos() / 1_000_000, f.flushes(),
                f.bytesWritten(), c.compactions(), c.moves(), c.bytesRead(), c.bytesWritten(),
                db.compactor().pendingBytes(), Math.round(writeAmplification * 1000) / 1000.0, wal.records(),
                wal.bytesLogged(), wal.forces(),
                wal.forceNanos() / 1_000,
                wal.groupWrites(), wal.filesReused(), wal.freeFiles(), db.failure().hasFailed());
    }

    private void checkOpen() {
        if (closed) {
            throw DatabaseClosedException.database(db.layout().dir());
        }
    }

    /**
     * Stops background work (a flush in progress finishes), forces the WAL, and releases the
     * directory. Data not yet in segments stays in the WAL and is replayed at the next open.
     * Idempotent; a call while another thread is closing returns once that close is done.
     * Snapshots stay readable until they are closed themselves.
     *
     * @throws IllegalStateException when called from a compaction's progress listener
     */
    @Override
    public void close() {
        refuseInCompactionListener("close()");
        // A second closer waits for the first: when close returns, the directory is released.
        synchronized (closing) {
            if (!closed) {
                closed = true;
                release();
            }
        }
    }

    private void release() {
        if (db.readOnly()) {
            db.live().close();
            try {
                db.lock().close();
            } catch (IOException e) {
                throw new StorageException("closing " + db.layout().dir() + " failed", e);
            }
            return;
        }
        db.writes().close();
        db.compactor().shutdown();
        db.flusher().shutdown();
        // Whether close may stay quiet: only for a database that had failed before it. The log's
        // own close can fail it too (a failed final force), and that must still be reported,
        // unless the log itself had failed (then it forces nothing): a database failed by a
        // flush's MANIFEST force still has a healthy log, whose final force close must vouch for.
        boolean failedBefore = db.failure().hasFailed();
        boolean walFailedBefore = db.wal().hasFailed();
        IOException walForceError = null;
        IOException first = null;
        try {
            // Writes to files already open are not checked (a stat per write would cost too
            // much): if the directory went away while open, close at least says so.
            db.lock().checkHeld();
        } catch (IOException e) {
            first = e;
        }
        try {
            db.wal().close();
        } catch (IOException e) {
            // The log fails itself only when its final write or force fails; removing its empty
            // file afterwards, or a lost lock, leaves it healthy and says nothing of durability.
            walForceError = !walFailedBefore && db.wal().hasFailed() ? e : null;
            first = e;
        }
        try {
            db.manifest().close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        db.live().close();
        db.compactor().deleteReleasedInputs();
        try {
            db.lock().close();
        } catch (IOException e) {
            first = first == null ? e : first;
        }
        if (walForceError != null) {
            throw new StorageException("closing " + db.layout().dir() + " failed: the WAL's final force did not"
                    + " complete, so writes acknowledged since its last force may not be durable", walForceError);
        }
        if (first != null && !failedBefore) {
            throw new StorageException("closing " + db.layout().dir() + " failed", first);
        }
    }
}
