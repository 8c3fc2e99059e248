package dev.tala.cli.command;

import dev.tala.cli.demo.FailureChain;
import dev.tala.cli.demo.NarrativeGenerator;
import dev.tala.cli.demo.NarrativeRun;
import dev.tala.cli.demo.TextEmbedder;
import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.Progress;
import dev.tala.cli.output.Table;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Relation;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "demo", header = "Create a database of realistic intents and show what TalaDB answers.", description = {
    "Create (or add to) a database of realistic intents (deploys, incidents, builds, provisioning, with causal, retry and dependency edges and outcomes), embed each command locally, ingest, flush and compact, then show what TalaDB answers: one intent, a time window, commands like it, the causal chain behind a failure, and the database's statistics."},
        footer = {"", "Example:", "  tala demo --db ./tala-data --intents 100000"})
public final class DemoCommand implements Callable<Integer> {
    private static final int BATCH = 1000;
    private static final long TWO_MINUTES_NS = 120_000_000_000L;

    @Mixin
    DbOptions common;

    @Option(names = "--intents", defaultValue = "100000", description = "How many intents to add (default: ${DEFAULT-VALUE}).")
    int intents;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of the generated narratives (default: ${DEFAULT-VALUE}).")
    long seed;

    private final PrintStream out = System.out;

    @Override
    public Integer call() {
        if (intents < 1) {
            throw new IllegalArgumentException("--intents must be at least 1");
        }
        TextEmbedder embedder = new TextEmbedder(Options.DEFAULT_DIMENSION);
        try (TalaDB db = TalaDB.open(common.dir(), Options.builder().dimension(embedder.dimension()).build())) {
            long start;
            try (Snapshot s = db.snapshot()) {
                OptionalLong newest = s.newestTimestamp();
                start = newest.isPresent() ? NarrativeGenerator.startAfter(newest.getAsLong())
                        : NarrativeGenerator.defaultStartNs(seed);
                if (newest.isPresent()) {
                    out.printf("%s already holds %,d intents; adding %,d more after them%n", db.directory(),
                            s.countIntents(), intents);
                } else {
                    out.printf("creating a database of %,d intents in %s%n", intents, db.directory());
                }
            }
            NarrativeRun run = new NarrativeGenerator(seed, embedder.dimension(), embedder, start).run(intents);
            ingest(db, run);
            db.compact(new CompactionBar()::update);
            showcase(db, run);
        }
        return 0;
    }

    private void ingest(TalaDB db, NarrativeRun run) {
        Progress progress = new Progress("ingesting", intents, "intents");
        WriteBatch batch = new WriteBatch();
        long done = 0;
        while (run.hasNext()) {
            batch.put(run.next());
            if (batch.size() == BATCH) {
                db.write(batch);
                done += batch.size();
                batch = new WriteBatch();
                progress.update(done);
            }
        }
        if (!batch.isEmpty()) {
            db.write(batch);
            done += batch.size();
        }
        progress.update(done);
        progress.finish();
        out.printf("ingested %,d intents in %.1f s (%,.0f intents/s, SYNC durability, batches of %d)%n", done,
                progress.elapsedSeconds(), done / Math.max(progress.elapsedSeconds(), 1e-9), BATCH);
        db.flush();
    }

    /** A progress bar that appears once the compaction reports its size. */
    private static final class CompactionBar {
        private Progress bar;

        void update(dev.tala.compaction.CompactionProgress p) {
            if (bar == null) {
                bar = new Progress("compacting", p.bytesTotal(), "B");
            }
            bar.update(p.bytesProcessed());
            if (p.bytesProcessed() >= p.bytesTotal()) {
                bar.finish();
            }
        }
    }

    private void showcase(TalaDB db, NarrativeRun run) {
        List<FailureChain> chains = run.failureChains();
        try (Snapshot s = db.snapshot()) {
            Intent failure = chains.isEmpty() ? null : s.get(chains.getLast().failure()).orElse(null);
            if (failure == null && !run.failedIds().isEmpty()) {
                failure = s.get(run.failedIds().getLast()).orElse(null);
            }
            if (failure == null) {
                out.println("\n(no failure in this run to show; try more intents)");
            } else {
                section("One intent, by id: a failure (tala get " + failure.id() + ")");
                IntentText.fields(failure).print(out);

                section("What else happened around it (tala scan, two minutes either side)");
                List<Intent> window = s.scan(Math.max(0, failure.timestampNs() - TWO_MINUTES_NS),
                        failure.timestampNs() + TWO_MINUTES_NS, 12);
                ScanCommand.printTable(window);

                section("Commands like \"" + IntentText.shorten(failure.command(), 60) + "\" (tala search --like)");
                // Many intents repeat a command word for word; show the nearest distinct commands.
                Set<String> seen = new HashSet<>(Set.of(failure.command()));
                List<SearchHit> like = new ArrayList<>();
                for (SearchHit h : s.search(failure.embedding(), 200, SearchFilter.ALL)) {
                    if (like.size() < 6 && seen.add(h.intent().command())) {
                        like.add(h);
                    }
                }
                Table t = new Table("score", "status", "when", "command");
                for (SearchHit h : like) {
                    t.row(String.format("%.3f", h.score()), h.intent().status().label(),
                            IntentText.time(h.intent().timestampNs()), IntentText.shorten(h.intent().command(), 80));
                }
                t.print(out);

                section("The chain that led to it (tala neighbors --depth 4: caused by, depends on, retries)");
                List<Hop> chain = s.traverse(failure.id(), 4,
                        EnumSet.of(Relation.CAUSAL, Relation.DEPENDENCY, Relation.RETRY), Direction.OUTGOING);
                Table c = new Table("depth", "relation", "status", "when", "command");
                for (Hop h : chain) {
                    Intent cause = s.get(h.to()).orElseThrow();
                    c.row(h.depth(), h.relation().label(), cause.status().label(), IntentText.time(cause.timestampNs()),
                            "  ".repeat(h.depth() - 1) + IntentText.shorten(cause.command(), 70));
                }
                if (chain.isEmpty()) {
                    out.println("(this failure has no recorded causes)");
                } else {
                    c.print(out);
                }
                List<Hop> after = s.traverse(failure.id(), 2, EnumSet.of(Relation.CAUSAL, Relation.RETRY),
                        Direction.INCOMING);
                if (!after.isEmpty()) {
                    out.println();
                    out.println("and what it set off (tala neighbors --reverse --depth 2):");
                    Table a = new Table("depth", "relation", "status", "command");
                    for (Hop h : after) {
                        Intent next = s.get(h.from()).orElseThrow();
                        a.row(h.depth(), h.relation().label(), next.status().label(),
                                "  ".repeat(h.depth() - 1) + IntentText.shorten(next.command(), 80));
                    }
                    a.print(out);
                }
            }
        }
        section("The database (tala stats)");
        DbStats stats = db.stats();
        Table st = Table.fields();
        st.row("intents", stats.intents());
        st.row("segments", stats.segments());
        st.row("bytes in segments", stats.segmentBytes());
        st.row("WAL bytes", stats.walBytes());
        st.row("flushes / compactions", stats.flushes() + " / " + stats.compactions());
        st.row("write amplification", String.format("%.2f", stats.writeAmplification()));
        st.print(out);
        out.println();
        out.println("Try: bin/tala get --db " + common.dir() + " ID, bin/tala search --db " + common.dir()
                + " --like ID, bin/tala --help");
    }

    private void section(String title) {
        out.println();
        out.println("== " + title);
    }
}
