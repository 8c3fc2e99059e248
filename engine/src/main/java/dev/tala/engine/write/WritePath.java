package dev.tala.engine.write;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.error.OperationInterruptedException;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.read.PointLookup;
import dev.tala.engine.view.LiveState;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.VisibleSequence;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The order of a write (docs/RECOVERY.md, "Write"): under one lock, make room in the memtable,
 * resolve outcome updates, log the record, add its versions to the memtable; then, without the
 * lock, wait until the WAL says the record may be acknowledged, and only then make it visible.
 * Many writers wait for the same force (group commit), and a reader never sees a version the
 * WAL could still lose.
 *
 * <p>When the memtable is full it is frozen and handed to the flusher, and a new WAL file starts.
 * When flushes fall behind (too many frozen memtables) writers stall here instead of filling
 * the heap; the stall is counted in the statistics.
 */
public final class WritePath {
    private static final long STALL_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * How long a writer yields for the mutex before it blocks on it (see {@link #lockForWrite}).
     * The mutex is held for a few microseconds per write, so a writer that finds it taken
     * seldom waits longer unless the holder lost its core, which yielding hands back to it.
     */
    private static final long MUTEX_YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private static final String FLUSH_ROOM = "a flush to make room in memory (maxImmutableMemtables)";

    private final ReentrantLock mutex = new ReentrantLock();
    private final Condition room = mutex.newCondition();
    private final LiveState live;
    private final WriteAheadLog wal;
    private final VisibleSequence visible;
    private final FileNumbers files;
    private final FailureState failure;
    private final Runnable scheduleFlush;
    private final long memtableBytes;
    private final int maxImmutables;
    private final int level0Limit;
    private final BooleanSupplier compactionSettled;
    private final EmbeddingType storedType;
    private volatile boolean closed;

    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong stalls = new AtomicLong();
    private final AtomicLong stallNanos = new AtomicLong();
    private final AtomicLong memtableSwitches = new AtomicLong();

    /**
     * @param level0Limit       writers stall while more flushed, uncompacted segments exist than
     *                          this (0: never, when no background compaction will reduce them)
     * @param compactionSettled true while the compaction policy has nothing to run; a stall for
     *                          level 0 ends then, since waiting longer would change nothing
     * @param storedType        the database's embedding type, which an outcome update's version is stored in
     */
    public WritePath(LiveState live, WriteAheadLog wal, VisibleSequence visible, FileNumbers files,
                     FailureState failure, Runnable scheduleFlush, long memtableBytes, int maxImmutables,
                     int level0Limit, BooleanSupplier compactionSettled, EmbeddingType storedType) {
        this.live = live;
        this.wal = wal;
        this.visible = visible;
        this.files = files;
        this.failure = failure;
        this.scheduleFlush = scheduleFlush;
        this.memtableBytes = memtableBytes;
        this.maxImmutables = maxImmutables;
        this.level0Limit = level0Limit;
        this.compactionSettled = compactionSettled;
        this.storedType = storedType;
    }

    /**
     * Applies {@code ops} atomically and returns the sequence number of the last one once it is
     * acknowledged.
     *
     * @throws dev.tala.core.error.InvalidIntentException if an outcome names an id with no live intent (nothing written)
     * @throws DatabaseFailedException if the WAL could not write or force (nothing acknowledged)
     */
    public long write(List<WalOp> ops) {
        long last;
        lockForWrite();
        try {
            checkOpen();
            failure.checkWritable();
            makeRoom();
            List<OpResolver.Resolved> resolved = resolve(ops);
            long first = wal.append(logged(ops, resolved));
            MemTable memtable = live.active();
            for (int i = 0; i < resolved.size(); i++) {
                OpResolver.Resolved r = resolved.get(i);
                memtable.add(r.at(first + i));
            }
            last = first + ops.size() - 1;
            memtable.noteLogged(last);
        } finally {
            mutex.unlock();
        }
        // A failure of the log fails the database through the log's listener (DatabaseOpener).
        wal.awaitDurable(last);
        visible.advanceTo(last);
        writes.incrementAndGet();
        return last;
    }

    /**
     * Takes the mutex for a write, yielding for up to {@link #MUTEX_YIELD_NANOS} before it blocks.
     * SYNC writers come back from a force together and all want the mutex at once, on a machine
     * that may have fewer cores than writers; one that blocks costs the releasing writer a
     * wake-up and waits for the scheduler to run it, while one that yields lets the holder
     * finish and takes the mutex on its next turn. RocksDB's writers likewise yield for a while
     * before they block while waiting for their write group.
     * With 16 SYNC writers through the engine this cut the time between two forces by about a
     * twelfth, 133 against 144 µs (docs/PERFORMANCE.md, stop 25).
     */
    private void lockForWrite() {
        if (mutex.tryLock()) {
            return;
        }
        long deadline = System.nanoTime() + MUTEX_YIELD_NANOS;
        do {
            Thread.yield();
            if (mutex.tryLock()) {
                return;
            }
        } while (System.nanoTime() - deadline < 0);
        mutex.lock();
    }

    /** The ops as the WAL records them ({@link OpResolver.Resolved#logged}). */
    private static List<WalOp> logged(List<WalOp> ops, List<OpResolver.Resolved> resolved) {
        List<WalOp> logged = null;
        for (int i = 0; i < ops.size(); i++) {
            WalOp op = ops.get(i);
            WalOp asLogged = resolved.get(i).logged(op);
            if (asLogged != op) {
                if (logged == null) {
                    logged = new ArrayList<>(ops);
                }
                logged.set(i, asLogged);
            }
        }
        return logged == null ? ops : logged;
    }

    private List<OpResolver.Resolved> resolve(List<WalOp> ops) {
        boolean needsLookup = false;
        for (WalOp op : ops) {
            needsLookup |= op instanceof WalOp.AttachOutcome;
        }
        if (!needsLookup) {
            return OpResolver.resolve(ops, id -> null, true, storedType, WalFormat.MAX_PAYLOAD_BYTES);
        }
        // Under the mutex the view's active memtable is the one being written: it holds every
        // earlier write, acknowledged or not, which is what a later outcome must build on.
        ReadView view = live.acquire();
        try {
            return OpResolver.resolve(ops, id -> PointLookup.findLatest(view, id), true, storedType,
                    WalFormat.MAX_PAYLOAD_BYTES);
        } finally {
            view.release();
        }
    }

    private void makeRoom() {
        if (level0Behind()) {
            stall(this::level0Behind, "a compaction to reduce the level-0 segments (more than " + level0Limit
                    + ", level0StallSegments)");
        }
        while (live.active().approximateBytes() >= memtableBytes) {
            if (live.immutableCount() >= maxImmutables) {
                stall(this::flushesBehind, FLUSH_ROOM);
                continue;
            }
            switchMemtable();
        }
    }

    private boolean level0Behind() {
        return level0Limit > 0 && live.level0Count() > level0Limit && !compactionSettled.getAsBoolean();
    }

    private boolean flushesBehind() {
        return live.immutableCount() >= maxImmutables;
    }

    /**
     * Waits, with the mutex released, until background work makes {@code blocked} false.
     * {@code forWhat} names that work in the error an interrupt gives: a writer stalled for
     * level 0 was told it had waited for a flush, and looked for a slow flush that was not there.
     */
    private void stall(java.util.function.BooleanSupplier blocked, String forWhat) {
        long start = System.nanoTime();
        stalls.incrementAndGet();
        try {
            while (blocked.getAsBoolean()) {
                checkOpen();
                failure.checkWritable();
                room.awaitNanos(STALL_POLL_NANOS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OperationInterruptedException("interrupted while waiting for " + forWhat + "; nothing was written");
        } finally {
            stallNanos.addAndGet(System.nanoTime() - start);
        }
    }

    /** Called with the mutex held: freeze the memtable, start a new WAL file, schedule the flush. */
    private MemTable switchMemtable() {
        long walNumber = files.next();
        wal.rotate(walNumber);
        // Rotation forced everything logged so far, so all of it may be seen: a view that later
        // shows this memtable as a segment is then never read below its versions.
        visible.advanceTo(wal.lastSequence());
        MemTable frozen = live.switchMemtable(new MemTable(walNumber));
        memtableSwitches.incrementAndGet();
        scheduleFlush.run();
        return frozen;
    }

    /**
     * Freezes the active memtable if it holds anything, and returns the newest frozen memtable
     * waiting for a flush (the one just frozen, if any), or null if none is. Read under the
     * mutex: close() empties the pending list only after it has taken the mutex, so a list read
     * after the check that the database is open still holds what close() would drop unflushed.
     */
    public MemTable freezeActive() {
        mutex.lock();
        try {
            checkOpen();
            failure.checkWritable();
            if (live.active().isEmpty()) {
                return live.newestImmutable();
            }
            while (flushesBehind()) {
                stall(this::flushesBehind, FLUSH_ROOM);
            }
            return switchMemtable();
        } finally {
            mutex.unlock();
        }
    }

    /** Wakes writers waiting for a flush or compaction (called when one finishes or fails). */
    public void flushProgressed() {
        mutex.lock();
        try {
            room.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    /** Refuses new writes; waits for writers inside the lock to leave it. */
    public void close() {
        closed = true;
        mutex.lock();
        try {
            room.signalAll();
        } finally {
            mutex.unlock();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw live.closedError();
        }
    }

    /** Counters for stats. */
    public record Stats(long writes, long stalls, long stallNanos, long memtableSwitches) {
    }

    public Stats stats() {
        return new Stats(writes.get(), stalls.get(), stallNanos.get(), memtableSwitches.get());
    }
}
