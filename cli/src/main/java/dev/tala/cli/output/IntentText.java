package dev.tala.cli.output;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Outcome;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How intents read in a terminal: times as dates, hashes in hex, long commands shortened. */
public final class IntentText {
    private IntentText() {
    }

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** Nanoseconds since the epoch as an ISO instant with milliseconds, always three digits. */
    public static String time(long epochNanos) {
        return ISO_MILLIS.format(Instant.ofEpochSecond(0, epochNanos));
    }

    public static String shorten(String s, int max) {
        String oneLine = Table.printable(s);
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
    }

    public static String outcome(Outcome o) {
        return o == null ? "none" : String.format("exit %d after %.3f s", o.exitCode(), o.latencyNs() / 1e9);
    }

    /** One intent as a field/value table. */
    public static Table fields(Intent i) {
        Table t = Table.fields();
        t.row("id", i.id());
        t.row("timestamp", time(i.timestampNs()) + " (" + Long.toUnsignedString(i.timestampNs()) + " ns)");
        t.row("command", i.command());
        t.row("status", i.status().label());
        t.row("outcome", outcome(i.outcome()));
        t.row("confidence", String.format("%.3f", i.confidence()));
        t.row("context_hash", String.format("0x%016x", i.contextHash()));
        StringBuilder head = new StringBuilder();
        for (int k = 0; k < Math.min(4, i.dimension()); k++) {
            head.append(k == 0 ? "" : ", ").append(String.format("%.4f", i.embedding(k)));
        }
        t.row("embedding", i.dimension() + " values [" + head + (i.dimension() > 4 ? ", …]" : "]"));
        t.row("edges", i.edges().isEmpty() ? "none" : i.edges().size() + "");
        for (Edge e : i.edges()) {
            t.row("", e.relation().label() + " -> " + e.target() + String.format(" (weight %.2f)", e.weight()));
        }
        return t;
    }
}
