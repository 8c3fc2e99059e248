package dev.tala.recovery.manifest;

import dev.tala.segment.SegmentMeta;
import java.util.Collections;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The live files and counters after applying a sequence of edits. Immutable.
 *
 * @param obsolete segments that were live once and were removed (compaction inputs): their files
 *                 may outlive the edit until no reader maps them, and recovery deletes them
 */
public record ManifestState(SortedMap<Long, SegmentMeta> segments, long logNumber, long nextFileNumber,
                            long lastSequence, SortedSet<Long> obsolete) {
    public static final ManifestState EMPTY = new ManifestState(new TreeMap<>(), 0, 1, 0, new TreeSet<>());

    public ManifestState {
        segments = Collections.unmodifiableSortedMap(new TreeMap<>(segments));
        obsolete = Collections.unmodifiableSortedSet(new TreeSet<>(obsolete));
    }

    /** This state with {@code edit} applied. Counters only move forward. */
    public ManifestState apply(ManifestEdit edit) {
        TreeMap<Long, SegmentMeta> next = new TreeMap<>(segments);
        TreeSet<Long> gone = new TreeSet<>(obsolete);
        for (long id : edit.removed()) {
            if (next.remove(id) != null) {
                gone.add(id);
            }
        }
        gone.addAll(edit.obsolete());
        for (SegmentMeta s : edit.added()) {
            next.put(s.id(), s);
            gone.remove(s.id());
        }
        return new ManifestState(next,
                Math.max(logNumber, edit.logNumber().orElse(logNumber)),
                Math.max(nextFileNumber, edit.nextFileNumber().orElse(nextFileNumber)),
                Math.max(lastSequence, edit.lastSequence().orElse(lastSequence)), gone);
    }

    /** This state without the obsolete ids whose files are gone. */
    public ManifestState withObsolete(SortedSet<Long> stillPresent) {
        return new ManifestState(segments, logNumber, nextFileNumber, lastSequence, stillPresent);
    }

    /** One edit that rebuilds this whole state from nothing: what a rewritten MANIFEST starts with. */
    public ManifestEdit asSnapshotEdit() {
        ManifestEdit.Builder b = ManifestEdit.builder()
                .logNumber(logNumber)
                .nextFileNumber(nextFileNumber)
                .lastSequence(lastSequence);
        segments.values().forEach(b::add);
        obsolete.forEach(b::obsolete);
        return b.build();
    }
}
