package dev.tala.cli.command;

import dev.tala.cli.output.Counts;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.RecoveryReport;
import dev.tala.wal.WalRecoveryMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "recover", description = "Run recovery now and print what it found and did.",
        footer = {"", "Modes: tolerate-tail (default: drop a torn WAL tail), absolute (refuse any damage),",
            "point-in-time (stop at the first damage), skip-corrupted (skip damaged records).",
            "", "Example:", "  tala recover --db ./tala-data --mode point-in-time"})
public final class RecoverCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Option(names = "--mode", defaultValue = "tolerate-tail", description = "WAL recovery mode (default: ${DEFAULT-VALUE}).")
    String mode;

    @Override
    public Integer call() {
        WalRecoveryMode recoveryMode = WalRecoveryMode.parse(mode);
        RecoveryReport report;
        try (TalaDB db = common.openExisting(Options.builder().recoveryMode(recoveryMode))) {
            report = db.recoveryReport();
        }
        if (common.json()) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("mode", recoveryMode.label());
            out.put("clean", report.isClean());
            out.put("live_segments", report.liveSegments());
            out.put("records_replayed", report.recordsReplayed());
            out.put("last_sequence", report.lastSequence());
            out.put("wal_bytes_dropped", report.replay() == null ? 0 : report.replay().droppedTailBytes());
            out.put("wal_records_skipped", report.replay() == null ? 0 : report.replay().skippedRecords());
            List<Map<String, String>> actions = new ArrayList<>();
            for (RecoveryReport.Action a : report.actions()) {
                // Ordered like every other JSON object tala prints (Map.of's order changes from run to run).
                Map<String, String> action = new LinkedHashMap<>();
                action.put("action", a.kind().name().toLowerCase(java.util.Locale.ROOT));
                action.put("file", a.file());
                action.put("reason", a.reason());
                actions.add(action);
            }
            out.put("actions", actions);
            Map<String, Long> steps = new LinkedHashMap<>();
            report.steps().forEach(s -> steps.put(s.name(), s.took().toNanos() / 1000));
            out.put("step_micros", steps);
            System.out.println(Json.line(out));
            return 0;
        }
        System.out.printf("recovered %s (mode %s): %s, %s replayed, last sequence %,d%n",
                common.dir(), recoveryMode.label(), Counts.of(report.liveSegments(), "live segment"),
                Counts.of(report.recordsReplayed(), "WAL record"), report.lastSequence());
        if (report.isClean()) {
            // Not "the last shutdown was clean": a kill leaves whole records to replay, and this
            // open reads no segment's data, so damage there is verify's to find.
            System.out.println("nothing to repair: no torn or damaged WAL record, torn MANIFEST edit or partial"
                    + " segment; 'tala verify' checks every segment's checksums");
        } else {
            Table t = new Table("action", "file", "reason");
            for (RecoveryReport.Action a : report.actions()) {
                t.row(a.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), a.file(), a.reason());
            }
            if (!t.isEmpty()) {
                t.print(System.out);
            }
        }
        Table steps = new Table("step", "time");
        report.steps().forEach(s -> steps.row(s.name(), String.format("%.1f ms", s.took().toNanos() / 1e6)));
        steps.print(System.out);
        return 0;
    }
}
