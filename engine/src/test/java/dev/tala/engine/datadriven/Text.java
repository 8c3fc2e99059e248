package dev.tala.engine.datadriven;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Outcome;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchHit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the driver prints what the database returns: one line per intent, hop or hit, in the same
 * {@code key=value} syntax the commands take, with names for ids and numbers as short as they
 * can be written exactly.
 */
final class Text {
    private Text() {
    }

    /**
     * A float in its shortest exact form, without a trailing ".0": {@code 1}, {@code 0.5},
     * {@code 0.099975586}.
     */
    static String number(float f) {
        if (f == Math.rint(f) && Math.abs(f) < 1e7f) {
            return Long.toString((long) f);
        }
        return Float.toString(f);
    }

    /**
     * A search score to four places. Exact scores would tie a file to the last bits of one
     * kernel (a flushed intent is scored by the segment's kernel, which may round differently);
     * four places are what a reader checks, and ties are shown by the order of names.
     */
    static String score(float score) {
        String s = String.format(Locale.ROOT, "%.4f", score);
        return s.equals("-0.0000") ? "0.0000" : s;
    }

    static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /**
     * Every field of {@code i}: name, timestamp, command, status and embedding always, and the
     * confidence, context hash, outcome and edges when they are not the defaults a put leaves
     * (1, 0, none, none).
     */
    static String intent(Intent i) {
        StringBuilder sb = new StringBuilder(IntentNames.name(i.id()))
                .append(" ts=").append(Long.toUnsignedString(i.timestampNs()))
                .append(" cmd=").append(quoted(i.command()))
                .append(" status=").append(i.status().label())
                .append(" vec=").append(vector(i.embedding()));
        if (i.confidence() != 1f) {
            sb.append(" conf=").append(number(i.confidence()));
        }
        if (i.contextHash() != 0) {
            sb.append(" ctx=").append(Long.toUnsignedString(i.contextHash()));
        }
        Outcome o = i.outcome();
        if (o != null) {
            sb.append(" latency=").append(o.latencyNs()).append(" exit=").append(o.exitCode());
        }
        if (!i.edges().isEmpty()) {
            List<String> edges = new ArrayList<>();
            for (Edge e : i.edges()) {
                edges.add(e.relation().label() + ":" + IntentNames.name(e.target())
                        + (e.weight() == 1f ? "" : ":" + number(e.weight())));
            }
            sb.append(" edges=(").append(String.join(",", edges)).append(')');
        }
        return sb.toString();
    }

    static String vector(float[] v) {
        List<String> parts = new ArrayList<>();
        for (float f : v) {
            parts.add(number(f));
        }
        return "(" + String.join(",", parts) + ")";
    }

    /** {@code a --retry--> b}, with the weight when it is not 1. */
    static String hop(Hop h) {
        return IntentNames.name(h.from()) + " --" + h.relation().label() + "--> " + IntentNames.name(h.to())
                + (h.weight() == 1f ? "" : " weight=" + number(h.weight()));
    }

    static String hit(SearchHit h) {
        return IntentNames.name(h.intent().id()) + " score=" + score(h.score());
    }

    /** Lines, or {@code (none)}: an empty answer is shown, not left as an empty output. */
    static String lines(List<String> lines) {
        return lines.isEmpty() ? "(none)\n" : String.join("\n", lines) + "\n";
    }
}
