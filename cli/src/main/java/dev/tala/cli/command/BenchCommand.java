package dev.tala.cli.command;

import dev.tala.bench.compare.SideBySide;
import dev.tala.bench.compare.WriteAmplificationRun;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.FileTrees;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "bench", header = "Run the same workload on TalaDB and RocksDB and compare.", description = {
    "Run the same workload on TalaDB and on RocksDB, in this process, on this disk, and print each side's throughput, p50/p99 latency and the ratio (above 1: TalaDB is ahead). The full run uses 200,000 intents of 1.6 KB (about a minute on 2 cores); --quick uses 50,000."},
        footer = {"", "Example:", "  tala bench --quick --json"})
public final class BenchCommand implements Callable<Integer> {
    @Option(names = "--quick", description = "50,000 intents instead of 200,000.")
    boolean quick;

    @Option(names = "--intents", paramLabel = "N", description = "Run with N intents (at least 100) instead.")
    Integer intents;

    @Option(names = "--json", description = "Print machine-readable JSON.")
    boolean json;

    @Option(names = "--db", paramLabel = "DIR", converter = NonEmptyPath.class, description = "Work directory (must not exist; deleted afterwards). Default: a temporary directory.")
    Path dir;

    @Option(names = "--wal-recycle", paramLabel = "N", description = {"Both stores keep up to N finished WAL files for reuse",
        "(TalaDB's walRecycleFiles, RocksDB's recycle_log_file_num). Default: 0, as both ship."})
    int walRecycleFiles;

    @Option(names = "--verbose", description = "On error, print the stack trace too.")
    boolean verbose;

    @Option(names = "--write-amp", paramLabel = "N", description = {"Instead: ingest N intents into each store, let both",
        "compact in the background, and print each one's write amplification from its own counters",
        "(docs/COMPACTION.md uses 1000000)."})
    Integer writeAmpIntents;

    @Override
    public Integer call() throws Exception {
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
        if (dir != null && Files.exists(dir)) {
            throw new TalaException(dir + " exists; bench needs a directory it can create and delete");
        }
        if (quick && (intents != null || writeAmpIntents != null)) {
            // It was ignored: the run an operator asked for was not the one made.
            throw new IllegalArgumentException("--quick and " + (intents != null ? "--intents" : "--write-amp")
                    + " each choose the run's size; give one");
        }
        if (intents != null && writeAmpIntents != null) {
            throw new IllegalArgumentException("--intents and --write-amp each choose the run; give one");
        }
        PrintStream progress = json ? new PrintStream(OutputStream.nullOutputStream()) : System.out;
        if (writeAmpIntents != null) {
            return writeAmplification(progress);
        }
        SideBySide.Settings settings = intents != null ? SideBySide.Settings.sized(intents)
                : quick ? SideBySide.Settings.quick() : SideBySide.Settings.full();
        try {
            settings = settings.withWalRecycleFiles(walRecycleFiles);
        } catch (IllegalArgumentException e) {
            throw new TalaException("--wal-recycle: " + e.getMessage());
        }
        SideBySide.Report report;
        Path work = workDirectory();
        try {
            report = SideBySide.run(settings, work, progress);
        } finally {
            FileTrees.delete(work);
        }
        if (json) {
            System.out.println(Json.line(report));
            return 0;
        }
        System.out.println();
        System.out.println("machine: " + report.machine());
        report.stores().forEach((name, s) -> System.out.println(name + ": " + s));
        System.out.println();
        Table t = new Table("workload", "TalaDB", "RocksDB", "ratio", "TalaDB p50 / p99", "RocksDB p50 / p99");
        for (SideBySide.Row r : report.rows()) {
            boolean latencies = r.talaP50Micros() > 0;
            t.row(r.workload(), format(r.tala()) + " " + r.unit(), format(r.rocks()) + " " + r.unit(),
                    String.format("%.2fx", r.ratio()),
                    latencies ? micros(r.talaP50Micros()) + " / " + micros(r.talaP99Micros()) : "",
                    latencies ? micros(r.rocksP50Micros()) + " / " + micros(r.rocksP99Micros()) : "");
        }
        t.print(System.out);
        System.out.println();
        report.checks().forEach(c -> System.out.println("check: " + c));
        return 0;
    }

    /** Made only once every argument was checked, so that a refused run leaves nothing behind. */
    private Path workDirectory() throws IOException {
        return dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("tala-bench");
    }

    private int writeAmplification(PrintStream progress) throws Exception {
        if (walRecycleFiles != 0) {
            throw new TalaException("--wal-recycle applies to the side-by-side run, not to --write-amp");
        }
        if (writeAmpIntents < 1) {
            throw new TalaException("--write-amp needs a positive number of intents, not " + writeAmpIntents);
        }
        WriteAmplificationRun.Result r;
        Path work = workDirectory();
        try {
            r = WriteAmplificationRun.run(writeAmpIntents, work, progress);
        } finally {
            FileTrees.delete(work);
        }
        if (json) {
            System.out.println(Json.line(r));
            return 0;
        }
        System.out.println();
        Table t = new Table("store", "user bytes", "WAL bytes", "flush bytes", "compaction bytes", "W-amp",
                "W-amp with WAL", "ingest+settle", "on disk");
        r.counts().forEach((name, c) -> t.row(name, mib(c.userBytes()), mib(c.walBytes()), mib(c.flushBytes()),
                mib(c.compactionBytes()), String.format("%.2f", c.writeAmplification()),
                String.format("%.2f", c.writeAmplificationWithWal()), String.format("%.1f s", r.ingestSeconds().get(name)),
                mib(r.bytesOnDisk().get(name))));
        t.print(System.out);
        System.out.println();
        r.counts().forEach((name, c) -> System.out.println(name + " own figure: " + c.ownFigure()));
        return 0;
    }

    private static String mib(long bytes) {
        return String.format("%,.0f MiB", bytes / 1048576.0);
    }

    private static String format(double v) {
        return v >= 100 ? String.format("%,.0f", v) : String.format("%,.2f", v);
    }

    private static String micros(double us) {
        return us >= 1000 ? String.format("%.1f ms", us / 1000) : String.format("%.1f µs", us);
    }

}
