package dev.tala.engine.datadriven;

import dev.tala.compaction.CompactionStats;
import dev.tala.engine.DbStats;
import dev.tala.recovery.RecoveryReport;
import dev.tala.segment.SegmentMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the database says about itself, reduced to what a file can predict from its commands:
 * counts, levels and time ranges, never sizes, file names, counters or times.
 */
final class Reports {
    private Reports() {
    }

    /** {@code segments=2 intents=5}. */
    static String stats(DbStats s) {
        return "segments=" + s.segments() + " intents=" + s.intents() + "\n";
    }

    /** {@code L0 rows=3 ts=10..12} per live segment, in the order the database lists them; rows count tombstones. */
    static String segments(List<SegmentMeta> live) {
        List<String> lines = new ArrayList<>();
        for (SegmentMeta m : live) {
            lines.add("L" + m.level() + " rows=" + m.rows() + " ts=" + m.minTimestamp() + ".." + m.maxTimestamp());
        }
        return Text.lines(lines);
    }

    /**
     * {@code merged 2 segments (9 rows) into 1 segment (5 rows): 2 shadowed, 2 tombstones dropped},
     * {@code moved 3 segments}, or {@code nothing to compact}.
     */
    static String compaction(Optional<CompactionStats> done) {
        if (done.isEmpty()) {
            return "nothing to compact\n";
        }
        CompactionStats s = done.get();
        if (s.moved()) {
            return "moved " + count(s.inputSegments(), "segment") + "\n";
        }
        return "merged " + count(s.inputSegments(), "segment") + " (" + count(s.inputRows(), "row") + ") into "
                + count(s.outputSegments(), "segment") + " (" + count(s.outputRows(), "row") + "): "
                + s.versionsShadowed() + " shadowed, " + count(s.tombstonesDropped(), "tombstone") + " dropped\n";
    }

    /** The report's headline, then each repair by its kind (the files it names left out). */
    static String recovery(RecoveryReport r) {
        StringBuilder sb = new StringBuilder(r.headline()).append('\n');
        for (RecoveryReport.Action a : r.actions()) {
            if (a.isRepair()) {
                sb.append("repaired: ").append(a.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    private static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
