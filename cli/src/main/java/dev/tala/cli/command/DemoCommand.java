package dev.tala.cli.command;

import dev.tala.cli.demo.NarrativeGenerator;
import dev.tala.cli.demo.NarrativeRun;
import dev.tala.cli.demo.TextEmbedder;
import dev.tala.cli.output.Counts;
import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Progress;
import dev.tala.cli.output.Table;
import dev.tala.core.error.TalaException;
import dev.tala.core.model.Intent;
import dev.tala.engine.DbStats;
import dev.tala.engine.Options;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.engine.query.SearchHit;
import java.io.PrintStream;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "demo", header = "Create a database of realistic intents and show what TalaDB answers.", description = {
    "Create (or add to) a database of realistic intents (deploys, incidents, builds, provisioning, with causal, retry and dependency edges and outcomes), embed each command locally, ingest, flush and compact, then show what TalaDB answers: one intent, a time window, commands like it, the causal chain behind a failure, and the database's statistics."},
        footer = {"", "With --json, one JSON object: what was added, the intents shown (without their embeddings)",
            "and the database's statistics.", "", "Example:", "  tala demo --db ./tala-data --intents 100000"})
public final class DemoCommand implements Callable<Integer> {
    private static final int BATCH = 1000;

    @Mixin
    DbOptions common;

    /** 2200-01-01T00:00:00Z: the newest stored timestamp a demo run may start after. */
    static final long LATEST_START_NS = 7_258_118_400L * 1_000_000_000L;

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
        boolean json = common.json();
        TextEmbedder embedder = new TextEmbedder(Options.DEFAULT_DIMENSION);
        try (TalaDB db = TalaDB.open(common.dir(), Options.builder().dimension(embedder.dimension()).build())) {
            long start;
            long before;
            try (Snapshot s = db.snapshot()) {
                OptionalLong newest = s.newestTimestamp();
                before = s.countIntents();
                if (newest.isPresent() && newest.getAsLong() >= LATEST_START_NS) {
                    // Timestamps past it overflow a long within the decades a large run can span.
                    throw new TalaException("demo adds its intents after the newest one stored, at "
                            + newest.getAsLong() + " ns (" + Instant.ofEpochSecond(0, newest.getAsLong())
                            + "), and needs that to be before " + Instant.ofEpochSecond(0, LATEST_START_NS)
                            + " to leave room for their timestamps");
                }
                start = newest.isPresent() ? NarrativeGenerator.startAfter(newest.getAsLong())
                        : NarrativeGenerator.defaultStartNs(seed);
                // Under --json only the report at the end goes to stdout.
                if (!json && newest.isPresent()) {
                    out.printf("%s already holds %s; adding %,d more after them%n", db.directory(),
                            Counts.of(before, "intent"), intents);
                } else if (!json) {
                    out.printf("creating a database of %s in %s%n", Counts.of(intents, "intent"), db.directory());
                }
            }
            NarrativeRun run = new NarrativeGenerator(seed, embedder.dimension(), embedder, start).run(intents);
            double seconds = ingest(db, run, json);
            db.compact(new CompactionBar(json)::update);
            Showcase showcase = Showcase.of(db, run);
            if (json) {
                out.println(Json.line(showcase.report(db.directory().toString(), before, intents, seconds)));
            } else {
                printShowcase(showcase);
            }
        }
        return 0;
    }

    /** Writes the run's intents in batches and flushes; returns the seconds the writes took. */
    private double ingest(TalaDB db, NarrativeRun run, boolean json) {
        Progress progress = Progress.unlessJson(json, "ingesting", intents, "intents");
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
        double seconds = progress.elapsedSeconds();
        if (!json) {
            out.printf("ingested %s in %.1f s (%,.0f intents/s, SYNC durability, batches of %d)%n",
                    Counts.of(done, "intent"), seconds, done / Math.max(seconds, 1e-9), BATCH);
        }
        db.flush();
        return seconds;
    }

    /** A progress bar that appears once the compaction reports its size. */
    private static final class CompactionBar {
        private final boolean json;
        private Progress bar;

        CompactionBar(boolean json) {
            this.json = json;
        }

        void update(dev.tala.compaction.CompactionProgress p) {
            if (bar == null) {
                bar = Progress.unlessJson(json, "compacting", p.bytesTotal(), "B");
            }
            bar.update(p.bytesProcessed());
            if (p.bytesProcessed() >= p.bytesTotal()) {
                bar.finish();
            }
        }
    }

    private void printShowcase(Showcase sc) {
        Intent failure = sc.failure();
        if (failure == null) {
            out.println("\n(no failure in this run to show; try more intents)");
        } else {
            section("One intent, by id: a failure (tala get " + failure.id() + ")");
            IntentText.fields(failure).print(out);

            section("What else happened around it (tala scan, two minutes either side)");
            ScanCommand.printTable(sc.window());

            section("Commands like \"" + IntentText.shorten(failure.command(), 60) + "\" (tala search --like)");
            Table t = new Table("score", "status", "when", "command");
            for (SearchHit h : sc.similar()) {
                t.row(String.format("%.3f", h.score()), h.intent().status().label(),
                        IntentText.time(h.intent().timestampNs()), IntentText.shorten(h.intent().command(), 80));
            }
            t.print(out);

            section("The chain that led to it (tala neighbors --depth 4: caused by, depends on, retries)");
            Table c = new Table("depth", "relation", "status", "when", "command");
            for (Showcase.Step step : sc.causes()) {
                Intent cause = step.intent();
                c.row(step.hop().depth(), step.hop().relation().label(), cause.status().label(),
                        IntentText.time(cause.timestampNs()),
                        "  ".repeat(step.hop().depth() - 1) + IntentText.shorten(cause.command(), 70));
            }
            if (sc.causes().isEmpty()) {
                out.println("(this failure has no recorded causes)");
            } else {
                c.print(out);
            }
            if (!sc.effects().isEmpty()) {
                out.println();
                out.println("and what it set off (tala neighbors --reverse --depth 2):");
                Table a = new Table("depth", "relation", "status", "command");
                for (Showcase.Step step : sc.effects()) {
                    a.row(step.hop().depth(), step.hop().relation().label(), step.intent().status().label(),
                            "  ".repeat(step.hop().depth() - 1) + IntentText.shorten(step.intent().command(), 80));
                }
                a.print(out);
            }
        }
        section("The database (tala stats)");
        DbStats stats = sc.stats();
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
