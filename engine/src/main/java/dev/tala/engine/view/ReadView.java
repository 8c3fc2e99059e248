package dev.tala.engine.view;

import dev.tala.engine.memtable.MemTable;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable picture of where data lives: the active memtable, the frozen ones waiting to be
 * flushed (newest first), and the live segments (newest first). Readers pin a view and read
 * through it without locks; flushes and compactions install new views instead of changing one.
 * A view holds a reference on each of its segments until its own last reference is released.
 */
public final class ReadView {
    private final MemTable active;
    private final List<MemTable> immutables;
    private final List<SegmentHandle> segments;
    private final AtomicInteger refs = new AtomicInteger(1);

    ReadView(MemTable active, List<MemTable> immutables, List<SegmentHandle> segments) {
        this.active = active;
        this.immutables = List.copyOf(immutables);
        this.segments = List.copyOf(segments);
        for (SegmentHandle s : this.segments) {
            s.retain();
        }
    }

    public MemTable active() {
        return active;
    }

    /** Frozen memtables, newest first. */
    public List<MemTable> immutables() {
        return immutables;
    }

    /** Live segments, newest first (by sequence range, which never overlap). */
    public List<SegmentHandle> segments() {
        return segments;
    }

    /** Takes a reference unless the view is already dead (its last reference is gone). */
    boolean tryRetain() {
        while (true) {
            int n = refs.get();
            if (n == 0) {
                return false;
            }
            if (refs.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    public void release() {
        int left = refs.decrementAndGet();
        if (left == 0) {
            for (SegmentHandle s : segments) {
                s.release();
            }
        } else if (left < 0) {
            throw new IllegalStateException("read view released too often");
        }
    }
}
