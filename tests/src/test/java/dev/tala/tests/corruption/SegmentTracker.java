package dev.tala.tests.corruption;

import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.TalaDB;
import dev.tala.segment.SegmentMeta;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Records which writes each segment file holds, by watching the live segments around
 * explicit flushes and compactions. Needed to know what recovery drops when it moves a segment
 * to {@code lost/}.
 */
final class SegmentTracker {
    private final TalaDB db;
    private final History history;
    private final Map<String, Set<Integer>> segments;
    /** Index of the first write not yet in a segment. */
    private int unflushedFrom;

    SegmentTracker(TalaDB db, History history, Map<String, Set<Integer>> segments) {
        this.db = db;
        this.history = history;
        this.segments = segments;
        this.unflushedFrom = history.writes().size();
    }

    /** Flushes the memtable; the one new segment holds every write since the previous flush. */
    void flush() {
        Set<String> before = liveNames();
        db.flush();
        Set<String> added = liveNames();
        added.removeAll(before);
        if (added.size() != 1) {
            throw new IllegalStateException("a flush should add one segment, it added " + added);
        }
        Set<Integer> writes = new HashSet<>();
        for (int i = unflushedFrom; i < history.writes().size(); i++) {
            writes.add(i);
        }
        unflushedFrom = history.writes().size();
        segments.put(added.iterator().next(), writes);
    }

    /** Compacts everything; each output may hold any write of the inputs it replaced. */
    void compact() {
        Set<String> before = liveNames();
        db.compact(progress -> { });
        Set<String> after = liveNames();
        Set<String> removed = new HashSet<>(before);
        removed.removeAll(after);
        Set<String> added = new HashSet<>(after);
        added.removeAll(before);
        if (removed.isEmpty() || added.isEmpty()) {
            throw new IllegalStateException("the compaction should replace segments: removed " + removed + ", added " + added);
        }
        Set<Integer> merged = new HashSet<>();
        for (String r : removed) {
            merged.addAll(segments.remove(r));
        }
        for (String a : added) {
            segments.put(a, Set.copyOf(merged));
        }
    }

    /** The live segments' file names (compaction inputs are deleted from disk a little later). */
    private Set<String> liveNames() {
        Set<String> names = new HashSet<>();
        for (SegmentMeta m : db.liveSegments()) {
            names.add(DatabaseLayout.segmentFileName(m.id()));
        }
        return names;
    }
}
