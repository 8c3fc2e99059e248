package dev.tala.cli.command;

import dev.tala.cli.output.Counts;
import dev.tala.cli.output.Json;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.FileTrees;
import dev.tala.tests.crash.KillHarness;
import dev.tala.tests.crash.RandomPowerLoss;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "crashtest", description = {
    "Prove, on this machine, that TalaDB keeps what it acknowledged.",
    "kill: a child JVM writes (SYNC, or --durability) and is SIGKILLed at random moments, over and over;",
    "power: in one process, simulated power loss after a random number of file operations.",
    "After each crash the database is reopened and checked: every acknowledged write there, no deleted intent back, verify clean. The work happens in a new temporary directory unless --db names one."},
        footer = {"", "Example:", "  tala crashtest --db /tmp/tala-crash --duration 60 --mode both --seed 7"})
public final class CrashtestCommand implements Callable<Integer> {
    @Option(names = "--db", paramLabel = "DIR", converter = NonEmptyPath.class,
            description = "Work directory (must not exist, or be empty; deleted when the test passes). Default: a new temporary directory.")
    Path workDir;

    @Option(names = "--json", description = "Print machine-readable JSON instead of progress lines.")
    boolean json;

    @Option(names = "--verbose", description = "On error, print the stack trace too.")
    boolean verbose;

    /** The longest --duration: a year. */
    static final long MAX_SECONDS = 365L * 24 * 3600;

    @Option(names = "--duration", defaultValue = "60", description = "Seconds to run, split between the modes (default: ${DEFAULT-VALUE}).")
    long seconds;

    @Option(names = "--mode", defaultValue = "both", description = "kill, power or both (default: ${DEFAULT-VALUE}).")
    String mode;

    @Option(names = "--seed", description = "Seed for the random workload and crash points (default: random).")
    Long seed;

    @Option(names = "--durability", defaultValue = "sync", description = {
        "Durability of the kill mode's writers: sync, none or batch:<millis> (default: ${DEFAULT-VALUE}).",
        "A kill takes the process, not the machine, so writes handed to the OS must survive it too.",
        "The power mode always writes SYNC: only forced writes are promised across a power loss."})
    String durability;

    @Override
    public Integer call() throws Exception {
        // Every crash makes the database log the failure it was made to suffer; the test reports
        // what matters itself. Set before the first logger exists.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "off");
        if (!List.of("kill", "power", "both").contains(mode)) {
            throw new IllegalArgumentException("--mode must be kill, power or both, not \"" + mode + "\"");
        }
        Durability killDurability = Durability.parse(durability);
        if (!killDurability.equals(Durability.sync()) && mode.equals("power")) {
            throw new IllegalArgumentException("--durability applies to the kill mode; the power mode always writes SYNC");
        }
        if (seconds < 1 || seconds > MAX_SECONDS) {
            // Past this, a deadline in nanoseconds overflowed: a run that tested nothing "passed".
            throw new IllegalArgumentException("--duration must be 1 to " + MAX_SECONDS + " seconds (a year), not "
                    + seconds);
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("tala-crashtest");
        if (Files.exists(dir) && !isEmptyDir(dir)) {
            throw new TalaException(dir + " exists and is not empty; crashtest needs a fresh work directory");
        }
        long s = seed != null ? seed : System.nanoTime();
        boolean both = mode.equals("both");
        Duration each = Duration.ofSeconds(both ? Math.max(1, seconds / 2) : seconds);
        int crashes = 0;
        long checked = 0;
        int lost = 0;
        int corrupt = 0;
        List<String> failures = new ArrayList<>();
        if (!json) {
            System.out.printf("crashtest: mode %s, %d s, seed %d, kill-mode durability %s, work directory %s%n",
                    mode, seconds, s, killDurability, dir);
        }
        if (mode.equals("kill") || both) {
            // A round's child may be killed before it acknowledges anything (a loaded machine
            // starts it slowly): the run goes on, up to four times its duration, until one has.
            KillHarness.Result r = new KillHarness(Files.createDirectories(dir.resolve("kill")), each, s,
                    json ? null : System.out, killDurability).acknowledgedAtLeast(1).run();
            crashes += r.crashes();
            checked += r.acknowledgedChecked();
            lost += r.lost();
            corrupt += r.corrupt();
            failures.addAll(r.failures());
        }
        if (failures.isEmpty() && (mode.equals("power") || both)) {
            RandomPowerLoss.Result r = RandomPowerLoss.run(Files.createDirectories(dir.resolve("power")), each, s,
                    json ? null : System.out);
            crashes += r.crashes();
            checked += r.acknowledgedChecked();
            lost += r.lost();
            corrupt += r.corrupt();
            failures.addAll(r.failures());
        }
        String untested = crashes == 0 ? "no crash happened in " + seconds + " s, so nothing was tested"
                : checked == 0 ? "no write was acknowledged before a crash, so nothing was tested" : null;
        // Nothing else went wrong: the directory holds a database the run never put to the test.
        boolean onlyUntested = untested != null && failures.isEmpty() && lost == 0 && corrupt == 0;
        if (onlyUntested) {
            failures.add(untested);
        }
        boolean passed = lost == 0 && corrupt == 0 && failures.isEmpty();
        if (passed) {
            FileTrees.delete(dir);
        }
        if (json) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("crashes", crashes);
            out.put("acknowledged_writes_checked", checked);
            out.put("lost", lost);
            out.put("corrupt", corrupt);
            out.put("seed", s);
            out.put("failures", failures);
            System.out.println(Json.line(out));
        } else {
            for (String f : failures) {
                System.out.println("FAILED " + f);
            }
            if (!passed) {
                System.out.println((crashes == 0 || onlyUntested ? "the work directory is kept in "
                        : "the damaged database is kept in ")
                        + dir + "; rerun with --seed " + s + " to reproduce");
            }
            System.out.printf("crashtest: %s, %s checked, %,d lost, %,d corrupt%n",
                    Counts.of(crashes, "crash", "crashes"), Counts.of(checked, "acknowledged write"), lost, corrupt);
        }
        return passed ? 0 : 1;
    }

    private static boolean isEmptyDir(Path dir) throws java.io.IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

}
