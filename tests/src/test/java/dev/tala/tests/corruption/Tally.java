package dev.tala.tests.corruption;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts how the cases of one group (a file kind and a damage mode) ended, overall and by the
 * part of the file the damage hit, and keeps the failed cases.
 */
final class Tally {
    private final String title;
    private final Map<CaseResult.End, Integer> ends = new EnumMap<>(CaseResult.End.class);
    private final Map<String, Map<CaseResult.End, Integer>> byPart = new TreeMap<>();
    private final Map<KnownIssue, Integer> known = new EnumMap<>(KnownIssue.class);
    private final List<CaseResult> failed = new ArrayList<>();
    private int cases;
    private int verifyNamed;

    Tally(String title) {
        this.title = title;
    }

    void add(CaseResult r) {
        cases++;
        ends.merge(r.end(), 1, Integer::sum);
        byPart.computeIfAbsent(r.damage().where().part(), p -> new EnumMap<>(CaseResult.End.class))
                .merge(r.end(), 1, Integer::sum);
        r.known().forEach(k -> known.merge(k, 1, Integer::sum));
        if (r.verifyNamedFile()) {
            verifyNamed++;
        }
        if (!r.passed()) {
            failed.add(r);
        }
    }

    String title() {
        return title;
    }

    List<CaseResult> failed() {
        return failed;
    }

    /** One line: the totals, as the summary table prints them. */
    String line() {
        return String.format("%-48s %6d %8d %10d %10d %10d %9d %7d %7d", title, cases, count(CaseResult.End.REFUSED_AT_OPEN),
                count(CaseResult.End.READS_RIGHT), count(CaseResult.End.READS_REFUSED),
                count(CaseResult.End.LOSS_REPORTED), count(CaseResult.End.LOSS_SILENT), verifyNamed,
                known.values().stream().mapToInt(Integer::intValue).sum()) + (failed.isEmpty() ? "" : "  " + failed.size()
                + " FAILED");
    }

    static String header() {
        return String.format("%-48s %6s %8s %10s %10s %10s %9s %7s %7s", "file kind / damage", "cases", "refused",
                "reads-ok", "reads-ref", "loss-rep", "loss-sil", "verify", "known")
                + "\n  (refused = refused at open; reads-ok = opened, all reads right; reads-ref = opened, reads refused"
                + "\n   with CorruptionException; loss-rep / loss-sil = opened after dropping writes, reported / not;"
                + "\n   verify = verify named the damaged file; known = cases that hit a KnownIssue)";
    }

    private int count(CaseResult.End end) {
        return ends.getOrDefault(end, 0);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(title).append(": ").append(cases).append(" cases");
        for (CaseResult.End e : CaseResult.End.values()) {
            if (count(e) > 0) {
                sb.append("\n    ").append(String.format("%5d", count(e))).append("  ").append(e.label);
            }
        }
        sb.append("\n    ").append(String.format("%5d", verifyNamed)).append("  reported by verify (naming the file)");
        known.forEach((k, n) -> sb.append("\n    ").append(String.format("%5d", n)).append("  known issue ").append(k));
        sb.append("\n    ").append(String.format("%5d", failed.size())).append("  FAILED");
        sb.append("\n  by the part of the file hit:");
        byPart.forEach((part, counts) -> {
            sb.append("\n    ").append(String.format("%-34s", part));
            counts.forEach((e, n) -> sb.append(" ").append(n).append(" ").append(e.label).append(";"));
        });
        return sb.toString();
    }
}
