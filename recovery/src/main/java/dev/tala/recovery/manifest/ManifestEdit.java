package dev.tala.recovery.manifest;

import dev.tala.segment.SegmentMeta;
import java.util.List;
import java.util.OptionalLong;

/**
 * One atomic change to the set of live files: segments added and removed, and the counters
 * that move with them. A flush adds one segment and raises the log number; a compaction adds
 * its outputs and removes its inputs in the same edit, so a crash sees either all or none.
 *
 * @param logNumber      WAL files numbered below this hold nothing that is not in segments
 * @param nextFileNumber the next number free for a WAL file or segment
 * @param lastSequence   the highest sequence number whose data is in segments
 * @param obsolete       segments removed earlier whose files may still exist (only in snapshot
 *                       edits; a removal itself makes a segment obsolete)
 */
public record ManifestEdit(OptionalLong logNumber, OptionalLong nextFileNumber, OptionalLong lastSequence,
                           List<SegmentMeta> added, List<Long> removed, List<Long> obsolete) {
    public ManifestEdit {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        obsolete = List.copyOf(obsolete);
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private OptionalLong logNumber = OptionalLong.empty();
        private OptionalLong nextFileNumber = OptionalLong.empty();
        private OptionalLong lastSequence = OptionalLong.empty();
        private final java.util.ArrayList<SegmentMeta> added = new java.util.ArrayList<>();
        private final java.util.ArrayList<Long> removed = new java.util.ArrayList<>();
        private final java.util.ArrayList<Long> obsolete = new java.util.ArrayList<>();

        public Builder logNumber(long n) {
            logNumber = OptionalLong.of(n);
            return this;
        }

        public Builder nextFileNumber(long n) {
            nextFileNumber = OptionalLong.of(n);
            return this;
        }

        public Builder lastSequence(long s) {
            lastSequence = OptionalLong.of(s);
            return this;
        }

        public Builder add(SegmentMeta segment) {
            added.add(segment);
            return this;
        }

        public Builder remove(long segmentId) {
            removed.add(segmentId);
            return this;
        }

        public Builder obsolete(long segmentId) {
            obsolete.add(segmentId);
            return this;
        }

        public ManifestEdit build() {
            return new ManifestEdit(logNumber, nextFileNumber, lastSequence, added, removed, obsolete);
        }
    }
}
