package dev.tala.cli.command;

import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.cli.json.JsonVector;
import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.Table;
import dev.tala.core.error.TalaException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "search", header = "The intents most similar to an intent or a vector (exact cosine).", description = {"The intents most similar to another intent (--like) or to a vector (--vector),",
    "by cosine similarity of their embeddings; exact (every live vector is scored)."},
        footer = {"", "Examples:", "  tala search --db ./tala-data --like 0190a6f2-7c1e-7a3b-9f00-0123456789ab -k 5",
            "  tala search --db ./tala-data --vector '[0.1, 0.2, 0.3, 0.4]' \\", "      --status failure --json"})
public final class SearchCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    static final class Probe {
        @Option(names = "--like", paramLabel = "ID", description = "Find intents like this one (it is left out of the results).")
        String like;

        @Option(names = "--vector", paramLabel = "JSON_ARRAY", description = "Find intents near this vector.")
        String vector;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Probe probe;

    @Option(names = "-k", defaultValue = "10", description = "How many results (default: ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--from", paramLabel = "NS", description = "Only intents at or after this time (ns since the epoch).")
    Long from;

    @Option(names = "--to", paramLabel = "NS", description = "Only intents before this time (ns since the epoch).")
    Long to;

    /** Split here rather than by picocli, which drops an empty last item ("success,") without a word. */
    @Option(names = "--status", paramLabel = "STATUS[,STATUS...]",
            description = "Only these statuses (pending, success, failure, partial), comma-separated.")
    List<String> statuses;

    @Option(names = "--min-confidence", description = "Only intents at least this confident.")
    Float minConfidence;

    @Override
    public Integer call() throws Exception {
        if (k < 1) {
            throw new IllegalArgumentException("-k must be at least 1");
        }
        long fromNs = from == null ? 0 : from;
        long toNs = to == null ? Long.MAX_VALUE : to;
        TimeRanges.check(fromNs, toNs);
        SearchFilter filter = SearchFilter.ALL.withTimeRange(fromNs, toNs);
        if (statuses != null) {
            Set<Status> only = EnumSet.noneOf(Status.class);
            for (String list : statuses) {
                for (String label : list.split(",", -1)) {
                    if (label.isBlank()) {
                        throw new IllegalArgumentException("--status " + list
                                + ": an empty status in the list (expected pending, success, failure or partial)");
                    }
                    only.add(Status.parse(label.trim()));
                }
            }
            filter = filter.withStatuses(only);
        }
        if (minConfidence != null) {
            filter = filter.withMinConfidence(minConfidence);
        }
        try (TalaDB db = common.openReadOnly(); Snapshot s = db.snapshot()) {
            List<SearchHit> hits;
            if (probe.like != null) {
                IntentId id = IntentId.parse(probe.like);
                Intent like = s.get(id).orElseThrow(() -> new TalaException("no intent " + id));
                hits = new ArrayList<>(s.search(like.embedding(), k == Integer.MAX_VALUE ? k : k + 1, filter));
                hits.removeIf(h -> h.intent().id().equals(id));
                if (hits.size() > k) {
                    hits = hits.subList(0, k);
                }
            } else {
                hits = s.search(JsonVector.parse(probe.vector, "--vector"), k, filter);
            }
            print(hits);
        }
        return 0;
    }

    private void print(List<SearchHit> hits) throws Exception {
        if (common.json()) {
            try (JsonLinesWriter w = new JsonLinesWriter(System.out)) {
                for (SearchHit h : hits) {
                    w.writeIntent(h.intent(), h.score());
                }
            }
            return;
        }
        Table t = new Table("rank", "score", "id", "status", "command");
        int rank = 1;
        for (SearchHit h : hits) {
            t.row(rank++, String.format("%.4f", h.score()), h.intent().id(), h.intent().status().label(),
                    IntentText.shorten(h.intent().command(), 80));
        }
        t.print(System.out);
    }
}
