package dev.tala.cli.command;

import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.cli.output.Counts;
import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.StdoutGone;
import dev.tala.cli.output.Table;
import dev.tala.core.model.Intent;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "scan", description = "List the intents whose timestamp is in [--from, --to), oldest first.",
        footer = {"", "Example:", "  tala scan --db ./tala-data --from 1735689600000000000 \\",
        "      --to 1735693200000000000 --limit 20"})
public final class ScanCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Option(names = "--from", required = true, paramLabel = "NS", description = "Start, nanoseconds since the epoch (inclusive).")
    long from;

    @Option(names = "--to", required = true, paramLabel = "NS", description = "End, nanoseconds since the epoch (exclusive).")
    long to;

    @Option(names = "--limit", defaultValue = "100", description = "At most this many intents (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() throws Exception {
        TimeRanges.check(from, to);
        if (limit < 1) {
            // 0 printed "0 intents (limit reached)" over a range that may hold many.
            throw new IllegalArgumentException("--limit must be at least 1, got " + limit);
        }
        try (TalaDB db = common.openReadOnly(); Snapshot snapshot = db.snapshot()) {
            if (common.json()) {
                // Streamed: the range may hold more intents, embeddings and all, than the heap
                // (a --limit of a million ran a 48 MiB heap out of memory with a stack trace).
                try (JsonLinesWriter w = new JsonLinesWriter(System.out)) {
                    long[] written = {0};
                    snapshot.scan(from, to, i -> {
                        if (StdoutGone.check()) {
                            return false; // nobody reads the rest
                        }
                        try {
                            w.writeIntent(i);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        return ++written[0] < limit;
                    });
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                return 0;
            }
            // The table aligns its columns, so it holds its rows; only their cells, not the intents.
            Table t = scanTable();
            int[] rows = {0};
            boolean[] cut = {false};
            snapshot.scan(from, to, i -> {
                if (rows[0] == limit) {
                    // One more than asked for says whether the limit cut the list ("5 intents
                    // (limit reached)" was printed for a range of exactly five).
                    cut[0] = true;
                    return false;
                }
                addRow(t, i);
                rows[0]++;
                return true;
            });
            t.print(System.out);
            System.out.println(Counts.of(rows[0], "intent") + (cut[0] ? " (more in the range; raise --limit)" : ""));
        }
        return 0;
    }

    static void printTable(List<Intent> intents) {
        Table t = scanTable();
        for (Intent i : intents) {
            addRow(t, i);
        }
        t.print(System.out);
    }

    private static Table scanTable() {
        return new Table("time", "id", "status", "outcome", "command");
    }

    private static void addRow(Table t, Intent i) {
        t.row(IntentText.time(i.timestampNs()), i.id(), i.status().label(), IntentText.outcome(i.outcome()),
                IntentText.shorten(i.command(), 70));
    }
}
