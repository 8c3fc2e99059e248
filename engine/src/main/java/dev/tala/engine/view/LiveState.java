package dev.tala.engine.view;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.engine.memtable.MemTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where the database's data lives right now, and the read view that publishes it. Every change
 * (memtable switch, flush, compaction) builds a new {@link ReadView} and installs it; readers
 * holding the old view keep reading it until they release it.
 */
public final class LiveState {
    /** Newest first; compaction outputs share a sequence range and are told apart by id. */
    private static final Comparator<SegmentHandle> NEWEST_FIRST = Comparator
            .comparingLong((SegmentHandle s) -> s.meta().maxSequence()).reversed()
            .thenComparingLong(SegmentHandle::id);

    private final Path dir;
    private final AtomicReference<ReadView> current;
    private MemTable active;
    private final List<MemTable> immutables = new ArrayList<>();
    private final List<SegmentHandle> segments = new ArrayList<>();
    private boolean closed;

    public LiveState(Path dir, MemTable active, List<SegmentHandle> liveSegments) {
        this.dir = dir;
        this.active = active;
        this.segments.addAll(liveSegments);
        this.segments.sort(NEWEST_FIRST);
        this.current = new AtomicReference<>(new ReadView(active, immutables, segments));
    }

    /** Pins the current view; the caller releases it. */
    public ReadView acquire() {
        while (true) {
            ReadView v = current.get();
            if (v.tryRetain()) {
                if (current.get() == v) {
                    return v;
                }
                v.release();
            } else if (current.get() == v) {
                throw closedError();
            }
        }
    }

    /**
     * Pins the current view with the visible sequence number read while that view was current:
     * every version at or below that number is then in the view's memtables or segments.
     */
    public PinnedView pin(VisibleSequence visible) {
        while (true) {
            ReadView v = current.get();
            long sequence = visible.get();
            if (v.tryRetain()) {
                if (current.get() == v) {
                    return new PinnedView(v, sequence);
                }
                v.release();
            } else if (current.get() == v) {
                throw closedError();
            }
        }
    }

    public DatabaseClosedException closedError() {
        return DatabaseClosedException.database(dir);
    }

    public synchronized MemTable active() {
        return active;
    }

    /** The frozen memtable to flush next (the oldest), or null. */
    public synchronized MemTable oldestImmutable() {
        return immutables.isEmpty() ? null : immutables.getLast();
    }

    /** The frozen memtable frozen last (flushed after every other one pending now), or null. */
    public synchronized MemTable newestImmutable() {
        return immutables.isEmpty() ? null : immutables.getFirst();
    }

    public synchronized int immutableCount() {
        return immutables.size();
    }

    public synchronized List<SegmentHandle> segments() {
        return List.copyOf(segments);
    }

    /** Segments written by flushes and not yet compacted. */
    public synchronized int level0Count() {
        int n = 0;
        for (SegmentHandle s : segments) {
            if (s.meta().level() == 0) {
                n++;
            }
        }
        return n;
    }

    /**
     * The oldest WAL file still needed once {@code flushing} is in a segment: the first file of
     * the oldest memtable other than it.
     */
    public synchronized long oldestNeededWalExcept(MemTable flushing) {
        long n = active.firstWalNumber();
        for (MemTable m : immutables) {
            if (m != flushing) {
                n = Math.min(n, m.firstWalNumber());
            }
        }
        return n;
    }

    /**
     * Replaces the active memtable while it is still empty (after a replay that found nothing,
     * so that it no longer pins the old WAL files).
     */
    public synchronized void replaceEmptyActive(MemTable fresh) {
        if (!active.isEmpty()) {
            throw new IllegalStateException("the active memtable holds data");
        }
        active = fresh;
        install();
    }

    /** Freezes the active memtable and makes {@code fresh} active. */
    public synchronized MemTable switchMemtable(MemTable fresh) {
        MemTable frozen = active;
        frozen.freeze();
        immutables.addFirst(frozen);
        active = fresh;
        install();
        return frozen;
    }

    /** A frozen memtable is now the segment {@code flushed}. */
    public synchronized void flushed(MemTable memtable, SegmentHandle flushed) {
        if (!immutables.remove(memtable)) {
            throw new IllegalStateException("flushed a memtable that was not pending");
        }
        segments.add(flushed);
        segments.sort(NEWEST_FIRST);
        install();
        memtable.markFlushed();
    }

    /** A frozen memtable with nothing in it is dropped without a segment. */
    public synchronized void dropEmpty(MemTable memtable) {
        immutables.remove(memtable);
        install();
        memtable.markFlushed();
    }

    /**
     * Compaction replaced {@code inputs} with {@code outputs}. The inputs leave the live set;
     * each is unmapped (and its cleanup run) once the last view holding it is released.
     */
    public synchronized void compacted(List<SegmentHandle> inputs, List<SegmentHandle> outputs) {
        if (!segments.containsAll(inputs)) {
            throw new IllegalStateException("compaction inputs are no longer all live");
        }
        segments.removeAll(inputs);
        segments.addAll(outputs);
        segments.sort(NEWEST_FIRST);
        install();
        for (SegmentHandle in : inputs) {
            in.release();
        }
    }

    private void install() {
        ReadView previous = current.getAndSet(new ReadView(active, immutables, segments));
        previous.release();
    }

    /** Drops the live set's references; views still pinned keep their segments until released. */
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        // An embedder may keep its closed handle: a dead, empty view replaces the last one, so
        // that the memtables (up to memtableBytes each) are no longer reachable from it, and no
        // acquire after close can succeed by retaining a view a snapshot still holds.
        ReadView dead = new ReadView(new MemTable(active.firstWalNumber()), List.of(), List.of());
        dead.release();
        current.getAndSet(dead).release();
        for (SegmentHandle s : segments) {
            s.release();
        }
        segments.clear();
        immutables.clear();
        active = dead.active();
    }
}
