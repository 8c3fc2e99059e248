package dev.tala.cli.command;

import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.cli.output.Counts;
import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.Table;
import dev.tala.core.model.Intent;
import dev.tala.engine.TalaDB;
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
        try (TalaDB db = common.openReadOnly()) {
            // One more than asked for says whether the limit cut the list ("5 intents (limit
            // reached)" was printed for a range of exactly five).
            List<Intent> found = db.scan(from, to, limit == Integer.MAX_VALUE ? limit : limit + 1);
            boolean cut = found.size() > limit;
            if (cut) {
                found = found.subList(0, limit);
            }
            if (common.json()) {
                try (JsonLinesWriter w = new JsonLinesWriter(System.out)) {
                    for (Intent i : found) {
                        w.writeIntent(i);
                    }
                }
                return 0;
            }
            printTable(found);
            System.out.println(Counts.of(found.size(), "intent") + (cut ? " (more in the range; raise --limit)" : ""));
        }
        return 0;
    }

    static void printTable(List<Intent> intents) {
        Table t = new Table("time", "id", "status", "outcome", "command");
        for (Intent i : intents) {
            t.row(IntentText.time(i.timestampNs()), i.id(), i.status().label(), IntentText.outcome(i.outcome()),
                    IntentText.shorten(i.command(), 70));
        }
        t.print(System.out);
    }
}
