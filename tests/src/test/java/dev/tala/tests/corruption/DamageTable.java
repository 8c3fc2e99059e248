package dev.tala.tests.corruption;

import dev.tala.tests.corruption.CaseResult.End;
import java.util.EnumSet;
import java.util.Set;

/**
 * RECOVERY.md's "What each kind of damage leads to", as the ends a case may reach given where
 * its damage landed. A case that ends any other way fails (unless a {@link KnownIssue} explains
 * that exact case). Entries that depend on how the base databases were built say so.
 */
final class DamageTable {
    /** Segment parts validated at open: "damaged segment header, footer, trailer, directory, bloom, index or foreign ids". */
    private static final Set<String> CHECKED_AT_OPEN = Set.of("header", "footer", "trailer", "bloom region",
            "index region", "foreign_ids region");

    private DamageTable() {
    }

    static Set<End> allowed(Damage d) {
        if (d.isNoOp()) {
            return EnumSet.of(End.READS_RIGHT);
        }
        String part = d.where().part();
        boolean flip = d.mode() == Damage.Mode.FLIP;
        return switch (d.kind()) {
            case SEGMENT -> {
                if (!flip || CHECKED_AT_OPEN.contains(part)) {
                    yield EnumSet.of(End.REFUSED_AT_OPEN); // a truncation fails the trailer check at open
                }
                if (part.equals("padding")) {
                    yield EnumSet.of(End.READS_RIGHT); // no read uses padding; verify must still report it
                }
                // Other regions are checked on first use: a read refuses. Open refuses too when WAL
                // replay needs the damaged region (an outcome update resolved against a segment version).
                yield EnumSet.of(End.READS_REFUSED, End.REFUSED_AT_OPEN);
            }
            case NEWEST_WAL -> {
                if (!flip) {
                    // Any cut of the newest file is a torn tail: dropped, truncated and reported.
                    yield EnumSet.of(End.LOSS_REPORTED);
                }
                // The last record: indistinguishable from a torn write. Anything earlier (the file
                // header included) has intact records after it: corruption, open fails.
                yield part.startsWith("last record") ? EnumSet.of(End.LOSS_REPORTED) : EnumSet.of(End.REFUSED_AT_OPEN);
            }
            // "flipped bit or truncation in an older WAL record": open fails naming file and offset.
            case OLDER_WAL -> EnumSet.of(End.REFUSED_AT_OPEN);
            case MANIFEST -> {
                if (part.contains("file header")) {
                    yield EnumSet.of(End.REFUSED_AT_OPEN);
                }
                if (!flip || part.startsWith("last edit")) {
                    // A cut, or damage in the last edit, is taken for a torn last edit: ignored, its segments
                    // orphaned to lost/ (reported). Open fails instead when the edits dropped were real: the
                    // WAL no longer holds their records (a sequence hole), or a compaction's deleted inputs
                    // would come back.
                    yield EnumSet.of(End.LOSS_REPORTED, End.REFUSED_AT_OPEN);
                }
                // "damaged MANIFEST edit before an intact one: open fails".
                yield EnumSet.of(End.REFUSED_AT_OPEN);
            }
        };
    }
}
