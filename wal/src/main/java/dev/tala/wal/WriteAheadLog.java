package dev.tala.wal;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.FileLayer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log of a database: assigns sequence numbers, encodes records into an
 * off-heap chronicle-bytes buffer, and makes them durable with group commit.
 *
 * <p>Appends are cheap and ordered: they only encode into the filling buffer under a lock.
 * Durability is a separate step, {@link #awaitDurable}: the first waiter becomes the leader,
 * swaps the filling buffer for an empty one, writes it (and forces, in SYNC mode) without the
 * lock, then wakes everyone its write covered. Writers that arrive meanwhile append into the
 * fresh buffer and are covered by the next leader: under load one force serves many writers.
 *
 * <p>Each waiting writer waits on its own {@link Waiter}, which the ending leader releases
 * directly; a released writer whose record is covered returns without taking the lock. Waking
 * through a {@link java.util.concurrent.locks.Condition} instead made every woken writer
 * re-acquire the lock in turn, a chain of thread hand-offs that on a small virtual machine
 * (35–46 µs per hand-off here, see HandoffProbe) cost more than the force itself.
 *
 * <p>Any I/O error is final: the log remembers it and refuses every later append and wait with
 * {@link DatabaseFailedException}. A failed force is never retried, because after one the OS may
 * report success for data it has dropped.
 */
public final class WriteAheadLog implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);
    private static final int INITIAL_BUFFER_BYTES = 256 * 1024;
    private static final int RETAINED_BUFFER_BYTES = 8 * 1024 * 1024;
    /** The longest a leader lingers for the writers of the last cycle (see {@link #lingerForCompany}). */
    private static final long MAX_LINGER_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /**
     * How long a waiting writer yields before it parks: up to this many of the last force's
     * durations, and never longer than {@link #MAX_YIELD_NANOS} ({@link #MAX_VIRTUAL_YIELD_NANOS}
     * for a virtual thread; see {@link #yieldBudget}).
     * Two forces cover the wait of a writer that arrives while the leader gathers its group:
     * the rest of the gathering, then the force. The cap bounds the processor time a wait can
     * burn; past it, on a disk whose forces take longer than 250 µs, a parked writer's wake-up
     * (about 10 µs) is small beside the force it waited for. RocksDB's default cap,
     * 100 µs, parked 95% of 16 writers here before the force they waited for ended, and their
     * wake-ups doubled the time between forces (see docs/PERFORMANCE.md, stop 23).
     */
    private static final long YIELD_FORCES = 2;
    private static final long MAX_YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** The cap for a virtual thread (see {@link #yieldBudget}). */
    private static final long MAX_VIRTUAL_YIELD_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final FileLayer fs;
    private final Path walDir;
    private final Durability durability;
    private final ReentrantLock lock = new ReentrantLock();
    /** Threads waiting for the active leader's turn to end; released all at once when it does. */
    private final List<Waiter> waiters = new ArrayList<>();
    private final ScheduledExecutorService batchSync;
    private final WalRecycler recycler;
    /** Null in SYNC mode, where every write is forced anyway. */
    private final WalWriteback writeback;

    // Guarded by lock.
    private WalFile current;
    private Bytes<ByteBuffer> filling = newBuffer();
    private Bytes<ByteBuffer> spare = newBuffer();
    private long lastSequence;
    /** Written under the lock; read without it by released waiters. */
    private volatile long writtenSequence;
    private volatile long forcedSequence;
    private boolean leaderActive;
    /**
     * Records in the filling buffer: written under the lock, read without it by a lingering
     * leader (see {@link #lingerForCompany}).
     */
    private volatile int fillingRecords;
    /**
     * The records of the last forced group's cycle: those it forced plus those appended while
     * it was forced. With one record per writer and wait, as in SYNC mode, these are the
     * writers that come back for the next group if they keep writing.
     */
    private int lastCycleRecords;
    private volatile long lastForceNanos;
    private Throwable failure;
    /** Told of the failure once (see {@link #onFailure}); guarded by lock. */
    private Consumer<DatabaseFailedException> failureListener;
    private boolean closed;

    // Statistics, guarded by lock.
    private long records;
    private long bytesLogged;
    private long forces;
    private long forceNanos;
    private long groupWrites;

    private WriteAheadLog(FileLayer fs, Path walDir, WalFile first, long lastSequence, Durability durability,
                          WalRecycler recycler, WalWriteback writeback) {
        this.fs = fs;
        this.recycler = recycler;
        this.writeback = writeback;
        this.walDir = walDir;
        this.durability = durability;
        this.current = first;
        this.lastSequence = lastSequence;
        this.writtenSequence = lastSequence;
        this.forcedSequence = lastSequence;
        if (durability.mode() == Durability.Mode.BATCH) {
            batchSync = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tala-wal-batch-sync");
                t.setDaemon(true);
                return t;
            });
            long period = durability.interval().toNanos();
            batchSync.scheduleWithFixedDelay(this::periodicSync, period, period, TimeUnit.NANOSECONDS);
        } else {
            batchSync = null;
        }
    }

    /**
     * Starts a log in a new file {@code walDir/<fileNumber>.wal}, continuing after
     * {@code lastSequence} (the highest sequence number already used by the database).
     */
    public static WriteAheadLog create(FileLayer fs, Path walDir, long fileNumber, long lastSequence,
                                       Durability durability) throws IOException {
        return create(fs, walDir, fileNumber, lastSequence, durability, 0);
    }

    /**
     * As {@link #create(FileLayer, Path, long, long, Durability)}, keeping up to
     * {@code recycleFiles} retired files for reuse (see {@link #retire}); 0 deletes them.
     */
    public static WriteAheadLog create(FileLayer fs, Path walDir, long fileNumber, long lastSequence,
                                       Durability durability, int recycleFiles) throws IOException {
        return create(fs, walDir, fileNumber, lastSequence, durability, recycleFiles, List.of());
    }

    /**
     * As {@link #create(FileLayer, Path, long, long, Durability, int)}, taking over the spare
     * files an earlier process left in {@code walDir} ({@code <n>.wal.ready} and
     * {@code <n>.wal.free}, which recovery never replays): a ready one becomes the first file
     * at once, the rest are kept for reuse (free ones zero-filled again first) or deleted.
     */
    public static WriteAheadLog create(FileLayer fs, Path walDir, long fileNumber, long lastSequence,
                                       Durability durability, int recycleFiles, List<Path> spareFiles)
            throws IOException {
        fs.createDirectories(walDir);
        WalRecycler recycler = new WalRecycler(fs, recycleFiles);
        WalWriteback writeback = forcesEveryWrite(durability) ? null : new WalWriteback(fs);
        try {
            for (Path spare : spareFiles) {
                recycler.adoptSpare(spare);
            }
            WalFile first = startFile(fs, walDir, recycler.take(), fileNumber, durability, writeback);
            return new WriteAheadLog(fs, walDir, first, lastSequence, durability, recycler, writeback);
        } catch (IOException | RuntimeException e) {
            recycler.close();
            if (writeback != null) {
                writeback.close();
            }
            throw e;
        }
    }

    /**
     * Starts WAL file {@code number}: in {@code spare}, a ready file taken from the recycler, or
     * else in a new file. Its blocks are preallocated and its writes handed to
     * {@code writeback} unless every write is forced.
     */
    private static WalFile startFile(FileLayer fs, Path walDir, Path spare, long number, Durability durability,
                                     WalWriteback writeback) throws IOException {
        boolean preallocate = !forcesEveryWrite(durability);
        return spare == null ? WalFile.create(fs, walDir, number, preallocate, writeback)
                : WalFile.reuse(fs, walDir, spare, number, preallocate, writeback);
    }

    /**
     * Whether every write is forced (SYNC). Such a log's files do not preallocate their blocks
     * (see {@link WalFile} for why), and need no writeback hints: each force writes what the
     * write before it left.
     */
    private static boolean forcesEveryWrite(Durability durability) {
        return durability.mode() == Durability.Mode.SYNC;
    }

    public Durability durability() {
        return durability;
    }

    /**
     * Logs {@code ops} as one atomic record with consecutive sequence numbers.
     *
     * @return the first sequence number assigned; the last is {@code first + ops.size() - 1}
     * @throws dev.tala.core.error.InvalidIntentException if the record is too large (nothing logged)
     * @throws DatabaseFailedException if an earlier write or force failed
     */
    public long append(List<WalOp> ops) {
        lock.lock();
        try {
            ensureUsable();
            long first = lastSequence + 1;
            int bytes = WalRecordCodec.encode(new WalRecord(first, ops), filling);
            lastSequence = first + ops.size() - 1;
            records++;
            fillingRecords++;
            bytesLogged += bytes;
            return first;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the record holding {@code sequence} may be acknowledged: forced to disk in
     * SYNC mode, handed to the operating system otherwise.
     */
    public void awaitDurable(long sequence) {
        commit(sequence, durability.mode() == Durability.Mode.SYNC);
    }

    /** Forces everything appended so far to disk, whatever the durability mode. */
    public void sync() {
        long target;
        lock.lock();
        try {
            target = lastSequence;
        } finally {
            lock.unlock();
        }
        commit(target, true);
    }

    private void commit(long sequence, boolean force) {
        while (!covered(sequence, force)) {
            Turn turn;
            Waiter waiter = null;
            lock.lock();
            try {
                throwIfFailed();
                if (covered(sequence, force)) {
                    return;
                }
                if (leaderActive) {
                    // Also close's final turn, which writes and forces every record appended
                    // before it: wait for it, as for any leader's, rather than refuse a record
                    // it is making durable.
                    waiter = enqueueWaiter();
                    turn = null;
                } else if (closed) {
                    throw new DatabaseClosedException("the write-ahead log was closed before sequence "
                            + sequence + " was made durable");
                } else {
                    leaderActive = true;
                    try {
                        if (force) {
                            lingerForCompany();
                        }
                        turn = takeTurn();
                    } catch (Error e) {
                        // Nothing was taken (takeTurn changes nothing when it fails): only the lead.
                        abandonTurn(null);
                        throw e;
                    }
                }
            } finally {
                lock.unlock();
            }
            if (waiter != null) {
                waiter.awaitRelease(yieldBudget());
                continue;
            }
            Throwable error = runIo(() -> {
                writeOut(turn.batch, turn.file);
                if (force) {
                    timedForce(turn.file);
                }
            });
            endTurn(turn, error, force, turn.file);
            return;
        }
    }

    /**
     * How long the calling writer yields while it waits for a leader (see
     * {@link Waiter#awaitRelease}). A virtual thread yields for at most 100 µs: its park and
     * unpark are a queue operation in the JVM's scheduler rather than a system call, and the
     * longer a virtual thread yields, the longer the writers just released wait behind it for
     * one of the carriers. With 16 virtual writers on a reused file, caps of 250 and 500 µs
     * split the groups (13.7–14.1 records per force against 15.8 with 100 µs). Parking at once
     * did best on a reused file, but on a growing one groups of 15 alternated with groups of 1,
     * for reasons not found (23,463–25,695 writes/s against 48,837–49,444 with 100 µs).
     */
    private long yieldBudget() {
        long cap = Thread.currentThread().isVirtual() ? MAX_VIRTUAL_YIELD_NANOS : MAX_YIELD_NANOS;
        return Math.min(cap, YIELD_FORCES * lastForceNanos);
    }

    private boolean covered(long sequence, boolean force) {
        return (force ? forcedSequence : writtenSequence) >= sequence;
    }

    /** A thread waiting until the leader's turn it waits behind has ended. */
    private static final class Waiter {
        private final Thread thread = Thread.currentThread();
        private volatile boolean released;

        /**
         * Yields the processor for up to {@code yieldNanos}, then parks. A parked platform
         * thread costs the releasing leader a wake-up each (12 µs apiece here, serially, for 15
         * waiters), and the writer notices its release only after the scheduler wakes it; a
         * yielding one sees the release on its next turn. RocksDB's write thread yields the
         * same way before it blocks. The budget follows the force, which is what the writer
         * waits for.
         */
        void awaitRelease(long yieldNanos) {
            long deadline = System.nanoTime() + yieldNanos;
            boolean interrupted = false;
            while (!released) {
                if (System.nanoTime() - deadline < 0) {
                    Thread.yield();
                } else {
                    LockSupport.park(this);
                    // park returns at once while the flag is set: clear it, restore it after.
                    interrupted |= Thread.interrupted();
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void release() {
            released = true;
            LockSupport.unpark(thread);
        }
    }

    /** Called with the lock held while a leader is active. */
    private Waiter enqueueWaiter() {
        Waiter w = new Waiter();
        waiters.add(w);
        return w;
    }

    /** Called with the lock held: waits until no leader is active, and returns with the lock held. */
    private void awaitNoLeader() {
        while (leaderActive) {
            Waiter w = enqueueWaiter();
            lock.unlock();
            try {
                w.awaitRelease(0);
            } finally {
                lock.lock();
            }
        }
    }

    /**
     * Finishes the current file (everything appended so far written and forced) and continues
     * in a new file {@code newFileNumber}; records appended from now on go there.
     *
     * @return the number of the file that was finished
     */
    public long rotate(long newFileNumber) {
        Turn turn;
        lock.lock();
        try {
            awaitNoLeader();
            ensureUsable();
            turn = takeTurn();
        } finally {
            lock.unlock();
        }
        WalFile[] next = new WalFile[1];
        Path free = recycler.take();
        Throwable error = runIo(() -> {
            writeOut(turn.batch, turn.file);
            timedForce(turn.file);
            turn.file.close();
            next[0] = startFile(fs, walDir, free, newFileNumber, durability, writeback);
        });
        endTurn(turn, error, true, next[0]);
        return turn.file.number();
    }

    /**
     * Takes a finished WAL file of this log whose records are all in segments (the MANIFEST
     * says so durably): keeps it for reuse if this log recycles files and has room, else
     * deletes it. Its name is gone when this returns; the caller syncs the directory.
     */
    public void retire(Path walFile) throws IOException {
        recycler.retire(walFile);
    }

    /**
     * Called by a new leader, with the lock held, before it forces: when the last force's cycle
     * had several records and fewer have been appended since, waits a little for their writers
     * to come back, so that one force keeps serving the whole group. Without this, on a machine
     * with fewer cores than writers, the leader forces as soon as it wakes, before the writers
     * its predecessor released have appended again, and groups shrink to one or two records.
     * (PostgreSQL's commit_delay and commit_siblings do the same.) The wait is bounded by half
     * the last force's duration, and a lone writer never waits.
     *
     * <p>The records of a cycle are those the force covered plus those appended while it ran.
     * Counting only the first kept a group that had once split in two (a writer late for
     * one force) split for good, the leader waiting for just its half (16 virtual writers
     * parking at once, growing file: 11.7–12.6 records per force, 13.3–13.5 counting both).
     *
     * <p>The leader lets go of the lock and yields while it waits, watching the count of
     * appended records, rather than sleeping on a condition the last appender signals: with 16
     * writers on two cores, the signal's wake-up was a fifth of the time between forces. It
     * stays the leader meanwhile ({@code leaderActive}), so {@link #close}, {@link #rotate} and
     * {@link #sync} wait for its turn to end, and the file, the failure and the closed flag
     * cannot change under it. An interrupt does not cut the wait short; the deadline bounds it.
     */
    private void lingerForCompany() {
        int want = lastCycleRecords;
        if (want <= 1 || fillingRecords >= want) {
            return;
        }
        long deadline = System.nanoTime() + Math.min(MAX_LINGER_NANOS, lastForceNanos / 2);
        lock.unlock();
        try {
            while (fillingRecords < want && System.nanoTime() - deadline < 0) {
                Thread.yield();
            }
        } finally {
            lock.lock();
        }
    }

    /** The buffer a leader writes out, the records and last sequence in it, and the file it goes to. */
    private record Turn(Bytes<ByteBuffer> batch, int records, long through, WalFile file) {
    }

    /** Called with the lock held and no other leader active: this thread becomes the leader. */
    private Turn takeTurn() {
        // Allocated before this thread leads: an OutOfMemoryError here left leaderActive set
        // with no leader to clear it, and close() (or any later write) waited for it forever.
        Turn turn = new Turn(filling, fillingRecords, lastSequence, current);
        leaderActive = true;
        filling = spare;
        spare = null;
        fillingRecords = 0;
        return turn;
    }

    /** Ends a leader's turn: records what became written (and forced), or the failure. */
    private void endTurn(Turn turn, Throwable error, boolean forced, WalFile nowCurrent) {
        List<Waiter> released;
        DatabaseFailedException failed = null;
        lock.lock();
        try {
            spare = recycle(turn.batch);
            groupWrites++;
            if (error == null) {
                current = nowCurrent;
                writtenSequence = turn.through;
                if (forced) {
                    forcedSequence = turn.through;
                    forces++;
                    forceNanos += lastForceNanos;
                    lastCycleRecords = turn.records + fillingRecords;
                }
            } else {
                fail(error);
                failed = failedError();
            }
            released = releaseWaiters();
        } catch (RuntimeException | Error e) {
            // Cut short (out of memory in the owner's failure listener or a new buffer): the
            // turn still ends, or every later turn and close() would wait for it forever.
            abandonTurn(e);
            throw e;
        } finally {
            lock.unlock();
        }
        // Unparked outside the lock, so that the woken do not queue for it behind this thread.
        released.forEach(Waiter::release);
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Called with the lock held when a leader's turn ends by an error thrown outside its I/O:
     * no leader is left, and everyone waiting is woken to look again. The error, unless null,
     * fails the log, since what the turn had recorded is unknown. Allocates nothing: the error
     * is most often an OutOfMemoryError.
     */
    private void abandonTurn(Throwable error) {
        if (error != null && failure == null) {
            failure = error;
        }
        leaderActive = false;
        for (int i = 0; i < waiters.size(); i++) {
            waiters.get(i).release();
        }
        waiters.clear();
    }

    /** Called with the lock held by an ending leader: hands back everyone waiting for it. */
    private List<Waiter> releaseWaiters() {
        leaderActive = false;
        if (waiters.isEmpty()) {
            return List.of();
        }
        List<Waiter> released = new ArrayList<>(waiters);
        waiters.clear();
        return released;
    }

    private interface IoStep {
        void run() throws IOException;
    }

    /**
     * Runs a leader's I/O without the lock; whatever it throws becomes the log's failure. The
     * caller's interrupt flag is set aside meanwhile: a plain FileChannel used by an interrupted
     * thread closes itself, which would fail the log for good because one writer was cancelled.
     * The local file layer's channels ignore interrupts altogether; this covers layers that
     * do not (see docs/RECOVERY.md).
     */
    private static Throwable runIo(IoStep step) {
        boolean interrupted = Thread.interrupted();
        try {
            step.run();
            return null;
        } catch (IOException | RuntimeException | Error e) {
            return e;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Called by the leader only: forces {@code file}, remembering how long that took. */
    private void timedForce(WalFile file) throws IOException {
        long start = System.nanoTime();
        file.force();
        lastForceNanos = System.nanoTime() - start;
    }

    private static void writeOut(Bytes<ByteBuffer> batch, WalFile file) throws IOException {
        int length = (int) batch.writePosition();
        if (length > 0) {
            file.append(batch.underlyingObject().slice(0, length));
        }
    }

    private static Bytes<ByteBuffer> recycle(Bytes<ByteBuffer> used) {
        if (used.realCapacity() > RETAINED_BUFFER_BYTES) {
            // One huge batch should not pin its buffer forever.
            used.releaseLast();
            return newBuffer();
        }
        used.clear();
        return used;
    }

    private static Bytes<ByteBuffer> newBuffer() {
        Bytes<ByteBuffer> b = Bytes.elasticByteBuffer(INITIAL_BUFFER_BYTES);
        // Different threads fill and drain a buffer in turn; the log's lock orders them.
        b.singleThreadedCheckDisabled(true);
        return b;
    }

    private void periodicSync() {
        try {
            boolean behind;
            lock.lock();
            try {
                behind = !closed && failure == null && forcedSequence < lastSequence;
            } finally {
                lock.unlock();
            }
            if (behind) {
                sync();
            }
        } catch (RuntimeException e) {
            if (failureListener == null) {
                LOG.error("periodic WAL sync failed ({}); the database is now read-only", LoggedErrors.describe(e),
                        LoggedErrors.traceOf(e));
            } else {
                // The owner was told, and logged it (see fail); one failure, one line.
                LOG.debug("periodic WAL sync failed", e);
            }
        }
    }

    /** Called with the lock held: the first failure is final. */
    private void fail(Throwable error) {
        if (failure == null) {
            failure = error;
            if (failureListener != null) {
                // The owner logs the failure it is told of; a second line would say it again.
                failureListener.accept(failedError());
            } else {
                LOG.error("write-ahead log I/O failed ({}); refusing further writes", LoggedErrors.describe(error),
                        LoggedErrors.traceOf(error));
            }
        }
    }

    /**
     * Has {@code listener} told of the failure that makes this log refuse writes, once: when it
     * happens, or at once if it already has. A failure in a writer's own call reaches that
     * writer as an exception; this is how the owner hears of one no caller sees, such as a
     * failed periodic force in BATCH mode. Called with the log's lock held, so it must be quick
     * and must not call back into the log.
     */
    public void onFailure(Consumer<DatabaseFailedException> listener) {
        lock.lock();
        try {
            failureListener = listener;
            if (failure != null) {
                listener.accept(failedError());
            }
        } finally {
            lock.unlock();
        }
    }

    private void ensureUsable() {
        if (closed) {
            throw new DatabaseClosedException("the write-ahead log is closed");
        }
        throwIfFailed();
    }

    private void throwIfFailed() {
        if (failure != null) {
            throw failedError();
        }
    }

    /** Called with the lock held once the log has failed: the error every later call gets. */
    private DatabaseFailedException failedError() {
        // The file layer's errors name their file, which is not the current one when a
        // rotation failed to start the next; named once ("X (X: No space left...)" said it twice).
        String what = failure instanceof FileSystemException f && f.getFile() != null && f.getReason() != null
                ? f.getFile() + ": " + f.getReason() : current.path() + ": " + LoggedErrors.describe(failure);
        return new DatabaseFailedException("the write-ahead log could not write or force " + what
                + "; the database is read-only until reopened", failure);
    }

    /** The highest sequence number assigned so far. */
    public long lastSequence() {
        lock.lock();
        try {
            return lastSequence;
        } finally {
            lock.unlock();
        }
    }

    public long currentFileNumber() {
        lock.lock();
        try {
            return current.number();
        } finally {
            lock.unlock();
        }
    }

    public boolean hasFailed() {
        lock.lock();
        try {
            return failure != null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Counters an operator reads in {@code stats}. {@code forceNanos} is the time spent in
     * forces: divided by {@code forces} it is the disk's force latency as the log sees it, and
     * divided by the time elapsed, the share of it the disk spent making writes durable.
     */
    public record Stats(long records, long bytesLogged, long forces, long forceNanos, long groupWrites,
                        long currentFileNumber, long filesReused, int freeFiles) {
    }

    public Stats stats() {
        lock.lock();
        try {
            return new Stats(records, bytesLogged, forces, forceNanos, groupWrites, current.number(), recycler.filesTaken(),
                    recycler.readyFiles());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes and forces what is still buffered (unless the log has failed) and closes the file.
     * Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (batchSync != null) {
            batchSync.shutdownNow();
        }
        if (writeback != null) {
            writeback.close();
        }
        recycler.close();
        Turn turn;
        boolean healthy;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            awaitNoLeader();
            closed = true;
            healthy = failure == null;
            turn = takeTurn();
        } finally {
            lock.unlock();
        }
        Throwable error = healthy ? runIo(() -> {
            writeOut(turn.batch, turn.file);
            turn.file.force();
        }) : null;
        try {
            turn.file.close();
        } finally {
            List<Waiter> released = List.of();
            lock.lock();
            try {
                if (healthy && error == null) {
                    writtenSequence = turn.through;
                    forcedSequence = turn.through;
                } else if (error != null) {
                    fail(error);
                }
                released = releaseWaiters();
                // Writers may wait on this turn (see commit): free the buffers only after they
                // are let go, so that a failure to free one cannot leave them parked.
                turn.batch.releaseLast();
                filling.releaseLast();
            } catch (RuntimeException | Error e) {
                if (leaderActive) {
                    abandonTurn(e); // as in endTurn: nobody may wait for this turn forever
                }
                throw e;
            } finally {
                lock.unlock();
                released.forEach(Waiter::release);
            }
        }
        if (error instanceof IOException io) {
            throw io;
        }
        if (error != null) {
            throw new IOException("closing the write-ahead log failed", error);
        }
        if (healthy && turn.file.holdsNoRecords()) {
            // A log that took no record leaves no file: an open keeps the WAL files it replayed
            // until a flush, so each open of such a database that writes nothing would
            // otherwise add one more empty file. A crash before this leaves it, which is harmless.
            fs.delete(turn.file.path());
            fs.syncDirectory(walDir);
        }
    }
}
