package dev.tala.tests.corruption;

import java.util.List;
import java.util.Set;

/**
 * How one damage case ended.
 *
 * @param verifyNamedFile verify (run before open) reported a problem naming the damaged file
 * @param known           known product issues this case ran into (their checks were waived)
 * @param failures        everything wrong; the case passes when this is empty
 */
record CaseResult(Damage damage, End end, boolean verifyNamedFile, Set<KnownIssue> known, List<String> failures) {
    enum End {
        REFUSED_AT_OPEN("refused at open"),
        READS_RIGHT("opened, all reads right"),
        READS_REFUSED("opened, reads refused with CorruptionException"),
        LOSS_REPORTED("opened, dropped writes reported, reads right for the rest"),
        LOSS_SILENT("opened, dropped writes NOT reported"),
        BROKEN("open or verify failed the wrong way");

        final String label;

        End(String label) {
            this.label = label;
        }
    }

    boolean passed() {
        return failures.isEmpty();
    }

    @Override
    public String toString() {
        String verify = damage.isNoOp() ? "" : verifyNamedFile ? ", reported by verify" : ", NOT reported by verify";
        return damage + ": " + end.label + verify
                + (known.isEmpty() ? "" : ", known issues " + known)
                + (failures.isEmpty() ? "" : "\n    " + String.join("\n    ", failures));
    }
}
