package dev.tala.engine.query;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * The live intents with {@code from <= timestamp < to}, in (timestamp, id) order, as a reader
 * at one sequence number sees them. Each source (memtable or segment) contributes its in-range
 * rows, found by a vectorized scan of the timestamp column after pruning whole segments by
 * their min/max timestamp; a k-way merge interleaves them; a row is emitted only if no newer
 * source holds another version of its id (which may be out of range, or a tombstone).
 * Streaming: the merge stops as soon as the consumer says so.
 */
public final class TimeRangeScan {
    private TimeRangeScan() {
    }

    /**
     * Refuses a time range {@code [from, to)} that ends before it starts, a bound below 0
     * counting as 0 (no timestamp is lower): an empty answer would hide arguments given in the
     * wrong order. The error shows the bounds as they were given.
     */
    public static void requireOrdered(long from, long to) {
        if (Math.max(to, 0) < Math.max(from, 0)) {
            throw new IllegalArgumentException("time range [" + from + ", " + to + ") ends before it starts");
        }
    }

    /** One source's candidates, sorted by (timestamp, id). */
    private abstract static class Candidates {
        final int priority;
        int position;

        Candidates(int priority) {
            this.priority = priority;
        }

        abstract int size();

        abstract long timestamp(int i);

        abstract IntentId id(int i);

        abstract Intent intent(int i);

        boolean valid() {
            return position < size();
        }
    }

    private static final class MemTableCandidates extends Candidates {
        final List<IntentVersion> rows;

        MemTableCandidates(int priority, MemTable memtable, long sequence, long from, long to) {
            super(priority);
            rows = memtable.newestIn(from, to, sequence);
            rows.sort(Comparator.comparingLong((IntentVersion v) -> v.intent().timestampNs()).thenComparing(IntentVersion::id));
        }

        @Override
        int size() {
            return rows.size();
        }

        @Override
        long timestamp(int i) {
            return rows.get(i).intent().timestampNs();
        }

        @Override
        IntentId id(int i) {
            return rows.get(i).id();
        }

        @Override
        Intent intent(int i) {
            return rows.get(i).intent();
        }
    }

    private static final class SegmentCandidates extends Candidates {
        final SegmentReader reader;
        final int[] rows;
        final long[] timestamps;

        SegmentCandidates(int priority, SegmentReader reader, long from, long to) {
            super(priority);
            this.reader = reader;
            IntList hits = new IntList();
            TimestampScanner.scan(reader.timestampColumn(), reader.rowCount(), from, to, row -> {
                // A tombstone stores timestamp 0, which only a range starting at 0 includes.
                if (from > 0 || !reader.isTombstone(row)) {
                    hits.add(row);
                }
            });
            int[] found = hits.toArray();
            long[] ts = new long[found.length];
            for (int i = 0; i < found.length; i++) {
                ts[i] = reader.timestamp(found[i]);
            }
            RowSort.byTimestamp(found, ts);
            this.rows = found;
            this.timestamps = ts;
        }

        @Override
        int size() {
            return rows.length;
        }

        @Override
        long timestamp(int i) {
            return timestamps[i];
        }

        @Override
        IntentId id(int i) {
            return reader.id(rows[i]);
        }

        @Override
        Intent intent(int i) {
            Intent intent = reader.version(rows[i]).intent();
            if (intent == null) {
                throw reader.tombstoneWithTimestamp(rows[i]);
            }
            return intent;
        }
    }

    /**
     * Streams matching intents to {@code consumer} until it returns false.
     *
     * @return the number of intents given to the consumer
     */
    public static long scan(ReadView view, long sequence, long from, long to, Predicate<Intent> consumer) {
        // Timestamps are never negative, and segments compare them unsigned: a negative bound
        // would read as a huge one there while memtables compared it signed.
        requireOrdered(from, to);
        from = Math.max(from, 0);
        if (from >= to) {
            return 0;
        }
        List<Candidates> sources = new ArrayList<>();
        List<MemTable> memtables = new ArrayList<>();
        memtables.add(view.active());
        memtables.addAll(view.immutables());
        int priority = 0;
        for (MemTable m : memtables) {
            if (m.mayHoldTimestampsIn(from, to)) {
                sources.add(new MemTableCandidates(priority, m, sequence, from, to));
            }
            priority++;
        }
        List<SegmentHandle> segments = view.segments();
        int firstSegment = priority;
        for (SegmentHandle s : segments) {
            SegmentMeta meta = s.meta();
            boolean overlaps = meta.rows() > 0 && Long.compareUnsigned(meta.maxTimestamp(), from) >= 0
                    && Long.compareUnsigned(meta.minTimestamp(), to) < 0;
            if (overlaps) {
                sources.add(new SegmentCandidates(priority, s.reader(), from, to));
            }
            priority++;
        }
        PriorityQueue<Candidates> heap = new PriorityQueue<>((a, b) -> {
            int c = Long.compare(a.timestamp(a.position), b.timestamp(b.position));
            if (c != 0) {
                return c;
            }
            c = a.id(a.position).compareTo(b.id(b.position));
            return c != 0 ? c : Integer.compare(a.priority, b.priority);
        });
        for (Candidates c : sources) {
            if (c.valid()) {
                heap.add(c);
            }
        }
        long emitted = 0;
        while (!heap.isEmpty()) {
            Candidates c = heap.poll();
            IntentId id = c.id(c.position);
            if (!shadowed(id, c.priority, memtables, segments, firstSegment, sequence)) {
                emitted++;
                if (!consumer.test(c.intent(c.position))) {
                    return emitted;
                }
            }
            c.position++;
            if (c.valid()) {
                heap.add(c);
            }
        }
        return emitted;
    }

    /** True if a source newer than {@code priority} holds any version of {@code id}. */
    private static boolean shadowed(IntentId id, int priority, List<MemTable> memtables, List<SegmentHandle> segments,
                                    int firstSegment, long sequence) {
        for (int p = 0; p < priority; p++) {
            if (p < firstSegment) {
                if (memtables.get(p).get(id, sequence) != null) {
                    return true;
                }
            } else {
                SegmentReader r = segments.get(p - firstSegment).reader();
                if (r.mightContain(id) && r.find(id) >= 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A growable int array, to collect matching rows without boxing. */
    static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
