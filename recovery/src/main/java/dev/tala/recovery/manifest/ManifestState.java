package dev.tala.recovery.manifest;

import dev.tala.segment.SegmentMeta;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/** The live files and counters after applying a sequence of edits. Immutable. */
public record ManifestState(SortedMap<Long, SegmentMeta> segments, long logNumber, long nextFileNumber,
                            long lastSequence) {
    public static final ManifestState EMPTY = new ManifestState(new TreeMap<>(), 0, 1, 0);

    public ManifestState {
        segments = Collections.unmodifiableSortedMap(new TreeMap<>(segments));
    }

    /** This state with {@code edit} applied. Counters only move forward. */
    public ManifestState apply(ManifestEdit edit) {
        TreeMap<Long, SegmentMeta> next = new TreeMap<>(segments);
        for (long id : edit.removed()) {
            next.remove(id);
        }
        for (SegmentMeta s : edit.added()) {
            next.put(s.id(), s);
        }
        return new ManifestState(next,
                Math.max(logNumber, edit.logNumber().orElse(logNumber)),
                Math.max(nextFileNumber, edit.nextFileNumber().orElse(nextFileNumber)),
                Math.max(lastSequence, edit.lastSequence().orElse(lastSequence)));
    }

    /** One edit that rebuilds this whole state from nothing: what a rewritten MANIFEST starts with. */
    public ManifestEdit asSnapshotEdit() {
        ManifestEdit.Builder b = ManifestEdit.builder()
                .logNumber(logNumber)
                .nextFileNumber(nextFileNumber)
                .lastSequence(lastSequence);
        segments.values().forEach(b::add);
        return b.build();
    }
}
