package dev.tala.compaction;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.model.IntentId;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.StoredRow;
import dev.tala.segment.format.RegionKind;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * A k-way merge of segments by id that yields, for each id, only the row of its newest version.
 *
 * <p>One cursor per input sits in a heap ordered by id, then by sequence number (highest first);
 * the head of the heap is therefore the newest version of the smallest id not yet emitted, and
 * every other cursor on that id holds a shadowed version, which is skipped without being decoded.
 * The winning row is not decoded either: it is passed on as a {@link StoredRow}, which the
 * writer copies from ({@link dev.tala.segment.SegmentRows#copiedFrom}) and a caller that wants
 * the version decodes ({@link SegmentReader#version(int)}).
 *
 * <p>A tombstone is emitted (it must keep hiding older versions in segments outside the merge)
 * unless no segment outside the merge may hold its id ({@link OlderVersions}): always so when the
 * merge is bottommost, and otherwise as the outside segments' bloom filters tell.
 */
public final class MergingIterator implements Iterator<StoredRow> {
    /** Smallest id first; for one id the newest version first; inputs listed earlier are newer. */
    private static final Comparator<Cursor> ORDER = Comparator
            .comparing((Cursor c) -> c.id)
            .thenComparing((a, b) -> Long.compare(b.sequence, a.sequence))
            .thenComparingInt(c -> c.input);

    private final OlderVersions outside;
    private final PriorityQueue<Cursor> heap;
    private final long[] consumed;
    private StoredRow lookahead;
    private long emitted;
    private long shadowed;
    private long tombstonesDropped;

    /**
     * @param newestFirst the inputs, newest first (ties in sequence number go to the earlier one)
     * @param bottommost  true when no live segment older than the inputs exists, so tombstones can go
     */
    public MergingIterator(List<SegmentReader> newestFirst, boolean bottommost) {
        this(newestFirst, bottommost ? OlderVersions.NONE : OlderVersions.UNKNOWN);
    }

    /**
     * @param newestFirst the inputs, newest first (ties in sequence number go to the earlier one)
     * @param outside     which ids the live segments outside the merge may hold: a tombstone
     *                    whose id none of them may hold is dropped
     */
    public MergingIterator(List<SegmentReader> newestFirst, OlderVersions outside) {
        this.outside = outside;
        this.heap = new PriorityQueue<>(Math.max(1, newestFirst.size()), ORDER);
        this.consumed = new long[newestFirst.size()];
        for (int i = 0; i < newestFirst.size(); i++) {
            Cursor c = new Cursor(newestFirst.get(i), i);
            if (c.load()) {
                heap.add(c);
            }
        }
    }

    @Override
    public boolean hasNext() {
        while (lookahead == null && !heap.isEmpty()) {
            lookahead = mergeSmallestId();
        }
        return lookahead != null;
    }

    @Override
    public StoredRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the merge is exhausted");
        }
        StoredRow v = lookahead;
        lookahead = null;
        emitted++;
        return v;
    }

    /** Consumes every version of the smallest id; returns the newest, or null if it was dropped. */
    private StoredRow mergeSmallestId() {
        Cursor newest = heap.poll();
        IntentId id = newest.id;
        StoredRow winner = null;
        if (newest.reader.isTombstone(newest.row) && !outside.mayHold(id)) {
            tombstonesDropped++;
        } else {
            winner = new StoredRow(newest.reader, newest.row);
        }
        advance(newest);
        while (!heap.isEmpty() && heap.peek().id.equals(id)) {
            shadowed++;
            advance(heap.poll());
        }
        return winner;
    }

    private void advance(Cursor c) {
        consumed[c.input]++;
        c.row++;
        if (c.load()) {
            heap.add(c);
        }
    }

    /** Input rows read so far, in all inputs. */
    public long rowsConsumed() {
        long sum = 0;
        for (long c : consumed) {
            sum += c;
        }
        return sum;
    }

    /** Rows read so far from input {@code input} (its index in the list given at construction). */
    public long rowsConsumed(int input) {
        return consumed[input];
    }

    /** Versions returned by {@link #next()} so far. */
    public long emitted() {
        return emitted;
    }

    /** Older versions skipped because a newer version of the same id was in the merge. */
    public long shadowedVersions() {
        return shadowed;
    }

    /** Newest versions that were tombstones and were dropped: no segment outside the merge may hold their ids. */
    public long tombstonesDropped() {
        return tombstonesDropped;
    }

    /** A position in one input; holds the id and sequence of its current row for the heap. */
    private static final class Cursor {
        final SegmentReader reader;
        final int input;
        int row;
        IntentId id;
        long sequence;

        Cursor(SegmentReader reader, int input) {
            this.reader = reader;
            this.input = input;
        }

        /** Reads the current row's key; false once the input is exhausted. */
        boolean load() {
            if (row >= reader.rowCount()) {
                return false;
            }
            IntentId previous = id;
            id = reader.id(row);
            sequence = reader.sequence(row);
            // The merge is only correct over sorted inputs; a damaged file must not yield a
            // segment with duplicate or unsorted ids.
            if (previous != null && previous.compareTo(id) >= 0) {
                long at = reader.directory().entry(RegionKind.IDS).offset() + (long) row * IntentId.BYTES;
                throw new CorruptionException(reader.path().toString(), at, "row " + row + " id " + id
                        + " does not follow " + previous + ": segment rows are not strictly ascending");
            }
            return true;
        }
    }
}
