package dev.tala.engine.read;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * What a reader at one sequence number sees, id by id: a k-way merge of the view's memtables
 * and segments in which, for each id, the newest source wins (sources are ordered newest
 * first and their sequence ranges do not overlap).
 */
public final class MergedVersions implements VersionCursor {
    private record Entry(VersionCursor cursor, int priority) {
    }

    private final PriorityQueue<Entry> heap = new PriorityQueue<>((a, b) -> {
        int c = a.cursor.id().compareTo(b.cursor.id());
        return c != 0 ? c : Integer.compare(a.priority, b.priority);
    });
    private Entry winner;

    public MergedVersions(ReadView view, long sequence) {
        List<VersionCursor> sources = new ArrayList<>();
        sources.add(new MemTableCursor(view.active(), sequence));
        for (MemTable m : view.immutables()) {
            sources.add(new MemTableCursor(m, sequence));
        }
        for (SegmentHandle s : view.segments()) {
            sources.add(new SegmentCursor(s.reader()));
        }
        for (int i = 0; i < sources.size(); i++) {
            if (sources.get(i).valid()) {
                heap.add(new Entry(sources.get(i), i));
            }
        }
        pickWinner();
    }

    private void pickWinner() {
        winner = heap.poll();
    }

    @Override
    public boolean valid() {
        return winner != null;
    }

    @Override
    public IntentId id() {
        return winner.cursor.id();
    }

    @Override
    public boolean isTombstone() {
        return winner.cursor.isTombstone();
    }

    @Override
    public IntentVersion version() {
        return winner.cursor.version();
    }

    @Override
    public void advance() {
        IntentId id = winner.cursor.id();
        // Older sources holding the same id are shadowed: step past them.
        while (!heap.isEmpty() && heap.peek().cursor.id().equals(id)) {
            Entry shadowed = heap.poll();
            shadowed.cursor.advance();
            if (shadowed.cursor.valid()) {
                heap.add(shadowed);
            }
        }
        winner.cursor.advance();
        if (winner.cursor.valid()) {
            heap.add(winner);
        }
        pickWinner();
    }

    /** Advances to the next id whose newest version is not a tombstone; false when none is left. */
    public boolean skipTombstones() {
        while (valid() && isTombstone()) {
            advance();
        }
        return valid();
    }
}
