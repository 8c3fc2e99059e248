package dev.tala.recovery;

import dev.tala.wal.ReplayReport;
import java.time.Duration;
import java.util.List;

/**
 * What opening a database found and did: the answer to "what happened to my data after that
 * crash?". Returned by open, logged, and printed by {@code tala recover}.
 *
 * @param actions     every file discarded, moved, truncated or deleted, with the reason
 * @param replay      the WAL replay, file by file (null if no WAL was replayed)
 * @param steps       how long each step took, in order
 * @param liveSegments segments the MANIFEST lists once the open is done: those it listed before, all
 *                     validated, and those a writable open's WAL replay flushed and listed
 */
public record RecoveryReport(List<Action> actions, ReplayReport replay, List<Step> steps, int liveSegments,
                             long manifestTornBytes, long lastSequence) {

    /** A change recovery made to the directory. */
    public record Action(Kind kind, String file, String reason) {
        public enum Kind { DELETED_PARTIAL_SEGMENT, DELETED_OBSOLETE_SEGMENT, MOVED_TO_LOST, DELETED_OBSOLETE_WAL,
            TRUNCATED_WAL_TAIL, DROPPED_WAL_AFTER_STOP, SKIPPED_WAL_RECORD, IGNORED_MANIFEST_TAIL,
            DELETED_TEMPORARY_FILE }

        /**
         * Whether this repaired damage or dropped data, as opposed to housekeeping (deleting
         * files that hold nothing live: obsolete WAL files and segments, temporary files).
         */
        public boolean isRepair() {
            return kind != Kind.DELETED_OBSOLETE_WAL && kind != Kind.DELETED_OBSOLETE_SEGMENT
                    && kind != Kind.DELETED_TEMPORARY_FILE;
        }

        @Override
        public String toString() {
            return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + ": " + file + " (" + reason + ")";
        }
    }

    /** One timed step of the open procedure. */
    public record Step(String name, Duration took) {
    }

    public long recordsReplayed() {
        return replay == null ? 0 : replay.recordsApplied();
    }

    /**
     * True when recovery repaired nothing and dropped nothing: no torn or damaged WAL record, torn
     * MANIFEST edit, partial or unlisted segment. Whole records a crash left are replayed, which
     * is not a repair, so a database killed between writes is clean too.
     */
    public boolean isClean() {
        return actions.stream().noneMatch(Action::isRepair) && (replay == null || replay.isClean())
                && manifestTornBytes == 0;
    }

    /** The first line of {@link #summary()}: segments, records replayed, last sequence, and "clean" if so. */
    public String headline() {
        return "recovery: " + liveSegments + (liveSegments == 1 ? " live segment, " : " live segments, ")
                + recordsReplayed() + (recordsReplayed() == 1 ? " WAL record" : " WAL records")
                + " replayed, last sequence " + lastSequence + (isClean() ? ", clean" : "");
    }

    /** A few lines for a log or a terminal. */
    public String summary() {
        StringBuilder sb = new StringBuilder(headline());
        for (Action a : actions) {
            sb.append("\n  ").append(a);
        }
        for (Step s : steps) {
            sb.append("\n  step ").append(s.name()).append(": ").append(s.took().toMillis()).append(" ms");
        }
        return sb.toString();
    }
}
