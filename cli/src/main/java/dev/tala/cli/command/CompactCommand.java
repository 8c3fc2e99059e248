package dev.tala.cli.command;

import dev.tala.cli.output.Counts;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Progress;
import dev.tala.cli.output.Table;
import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.CompactionStats;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "compact", header = "Merge segments now (what the policy asks for, or everything with --full).", description = {"Merge segments now: what the compaction policy asks for, or, with --full,",
    "everything into one sorted run (dropping deleted intents and old versions)."},
        footer = {"", "Example:", "  tala compact --db ./tala-data --full"})
public final class CompactCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Option(names = "--full", description = "Compact every segment into one run.")
    boolean full;

    @Override
    public Integer call() {
        List<CompactionStats> runs = new ArrayList<>();
        Progress[] bar = new Progress[1];
        CompactionProgress.Listener listener = p -> {
            if (bar[0] == null) {
                bar[0] = Progress.unlessJson(common.json(), "compacting", p.bytesTotal(), "B");
            }
            bar[0].update(p.bytesProcessed());
        };
        try (StopOnSignal stop = new StopOnSignal();
             TalaDB db = common.openExisting(Options.builder().backgroundCompaction(false))) {
            if (full) {
                db.compact(listener).ifPresent(runs::add);
            } else {
                runs.addAll(db.compactPending(listener));
            }
            if (bar[0] != null) {
                bar[0].finish();
            }
            long segmentsAfter = db.stats().segments();
            if (common.json()) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("compactions", runs.size());
                out.put("moves", runs.stream().filter(CompactionStats::moved).count());
                out.put("bytes_read", runs.stream().mapToLong(CompactionStats::bytesRead).sum());
                out.put("bytes_written", runs.stream().mapToLong(CompactionStats::outputBytes).sum());
                out.put("rows_read", runs.stream().mapToLong(CompactionStats::inputRows).sum());
                out.put("rows_written", runs.stream().mapToLong(CompactionStats::outputRows).sum());
                out.put("tombstones_dropped", runs.stream().mapToLong(CompactionStats::tombstonesDropped).sum());
                out.put("segments_after", segmentsAfter);
                System.out.println(Json.line(out));
                return 0;
            }
            if (runs.isEmpty()) {
                System.out.println(full ? "nothing to compact: the database has no segments"
                        : "nothing to compact: the policy is satisfied (use --full to merge everything)");
                return 0;
            }
            Table t = new Table("inputs", "how", "bytes read", "bytes written", "rows in", "rows out",
                    "tombstones dropped", "seconds");
            for (CompactionStats s : runs) {
                t.row(s.inputSegments(), s.moved() ? "moved" : "merged", s.bytesRead(), s.outputBytes(),
                        s.inputRows(), s.outputRows(), s.tombstonesDropped(), String.format("%.2f", s.elapsedNanos() / 1e9));
            }
            t.print(System.out);
            System.out.println(Counts.of(segmentsAfter, "segment") + " now");
        }
        return 0;
    }
}
