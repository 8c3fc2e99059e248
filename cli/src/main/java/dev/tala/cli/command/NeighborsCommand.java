package dev.tala.cli.command;

import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.cli.json.NeighborRow;
import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.Table;
import dev.tala.core.error.TalaException;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "neighbors", header = "Follow edges from (or, with --reverse, to) an intent, breadth first.", description = {"Follow edges from an intent, breadth first: what it points at",
    "(caused by, depends on, retries...), or with --reverse, what points at it."},
        footer = {"", "Example:", "  tala neighbors --db ./tala-data 0190a6f2-7c1e-7a3b-9f00-0123456789ab --depth 3"})
public final class NeighborsCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Parameters(index = "0", paramLabel = "ID", description = "Where to start.")
    String id;

    @Option(names = "--depth", defaultValue = "1", description = "How many steps to follow (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--reverse", description = "Follow incoming edges instead of outgoing ones.")
    boolean reverse;

    @Override
    public Integer call() throws Exception {
        IntentId start = IntentId.parse(id);
        if (depth < 1) {
            throw new IllegalArgumentException("--depth must be at least 1");
        }
        try (TalaDB db = common.openReadOnly(); Snapshot s = db.snapshot()) {
            if (s.get(start).isEmpty()) {
                throw new TalaException("no intent " + start);
            }
            List<Hop> hops = s.traverse(start, depth, Set.of(), reverse ? Direction.INCOMING : Direction.OUTGOING);
            if (common.json()) {
                try (JsonLinesWriter w = new JsonLinesWriter(System.out)) {
                    for (Hop h : hops) {
                        w.writeNeighbor(new NeighborRow(h.from(), h.to(), h.relation(), h.weight(), h.depth()));
                    }
                }
                return 0;
            }
            Table t = new Table("depth", "from", "relation", "to", "weight", "command of " + (reverse ? "from" : "to"));
            for (Hop h : hops) {
                String command = s.get(reverse ? h.from() : h.to()).map(i -> IntentText.shorten(i.command(), 60)).orElse("");
                t.row(h.depth(), h.from(), h.relation().label(), h.to(), String.format("%.2f", h.weight()), command);
            }
            if (hops.isEmpty()) {
                System.out.println("no " + (reverse ? "incoming" : "outgoing") + " edges from live intents");
            } else {
                t.print(System.out);
            }
        }
        return 0;
    }
}
