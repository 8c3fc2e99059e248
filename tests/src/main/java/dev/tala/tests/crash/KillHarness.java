package dev.tala.tests.crash;

import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The kill test: a supervisor starts a child JVM ({@link KillChild}) writing to the database,
 * SIGKILLs it at a random moment (sometimes during its own recovery), reopens the database and
 * checks that every acknowledged write is there, nothing deleted is back and verify is clean;
 * then starts the next child on the same database, until the time is spent.
 */
public final class KillHarness {
    /** What the run did and found. */
    public record Result(int crashes, long acknowledgedChecked, int lost, int corrupt, List<String> failures, Path dir) {
        public boolean passed() {
            return lost == 0 && corrupt == 0 && failures.isEmpty();
        }
    }

    private static final int THREADS = 4;

    private final Path workDir;
    private final Duration duration;
    private final long seed;
    private final PrintStream progress;
    private final Durability durability;
    private final int minimumCrashes;
    private final long minimumAcknowledged;

    /** A run whose children make SYNC writes. */
    public KillHarness(Path workDir, Duration duration, long seed, PrintStream progress) {
        this(workDir, duration, seed, progress, Durability.sync());
    }

    /** A run whose children write with {@code durability}. */
    public KillHarness(Path workDir, Duration duration, long seed, PrintStream progress, Durability durability) {
        this(workDir, duration, seed, progress, durability, 0, 0);
    }

    private KillHarness(Path workDir, Duration duration, long seed, PrintStream progress, Durability durability,
                        int minimumCrashes, long minimumAcknowledged) {
        this.workDir = workDir;
        this.duration = duration;
        this.seed = seed;
        this.progress = progress;
        this.durability = durability;
        this.minimumCrashes = minimumCrashes;
        this.minimumAcknowledged = minimumAcknowledged;
    }

    /**
     * The same run, going on past its duration until it has killed {@code crashes} children: a
     * slow or loaded machine then takes longer instead of checking fewer crashes.
     */
    public KillHarness atLeast(int crashes) {
        return new KillHarness(workDir, duration, seed, progress, durability, crashes, minimumAcknowledged);
    }

    /**
     * The same run, going on past its duration (up to four times it) until at least {@code writes}
     * acknowledged writes were checked: how many a round acknowledges before its kill depends on
     * how fast the machine starts the child and writes (0 to about 100 a round on a loaded 2-core host).
     */
    public KillHarness acknowledgedAtLeast(long writes) {
        return new KillHarness(workDir, duration, seed, progress, durability, minimumCrashes, writes);
    }

    public Result run() throws IOException, InterruptedException {
        Path db = workDir.resolve("db");
        TalaDB.open(db, KillChild.options(durability)).close();
        Random random = new Random(seed);
        Ledger ledger = new Ledger();
        List<String> failures = new ArrayList<>();
        int crashes = 0;
        int lost = 0;
        int corrupt = 0;
        long deadline = System.nanoTime() + duration.toNanos();
        long cap = System.nanoTime() + 4 * duration.toNanos();
        while ((System.nanoTime() < deadline || crashes < minimumCrashes
                || (ledger.acknowledgedWrites() < minimumAcknowledged && System.nanoTime() < cap))
                && failures.isEmpty()) {
            long roundSeed = seed * 7919 + crashes;
            Path sideLog = workDir.resolve("side-" + crashes + ".log");
            Path childTemp = Files.createDirectories(workDir.resolve("child-tmp"));
            Process child = startChild(db, sideLog, childTemp, roundSeed);
            boolean duringRecovery = random.nextInt(5) == 0;
            // A kill aimed at recovery waits for the child's JVM to start and then strikes within
            // the few milliseconds its open (WAL replay, manifest, segment checks) takes.
            List<String> before = new ArrayList<>();
            if (!awaitLine(child, duringRecovery ? "opening" : "ready", before)) {
                failures.add("round " + crashes + ": the child did not open the database: "
                        + String.join("\n", before) + drain(child));
                break;
            }
            Thread.sleep(duringRecovery ? random.nextInt(30) : 20 + random.nextInt(800));
            child.destroyForcibly();
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                // Still alive, it would hold the lock and every check below would fail for that.
                failures.add("round " + crashes + ": the child did not die within 60 s of SIGKILL");
                break;
            }
            crashes++;
            // A child killed while it loads a native library (zstd-jni copies its own out to the
            // temporary folder and deletes it once loaded) leaves the copy behind: one per kill
            // in that window, which over a long run filled /tmp.
            FileTrees.delete(childTemp);
            addRound(ledger, SideLog.read(sideLog), roundSeed);
            int[] found = check(db, ledger, failures, crashes);
            lost += found[0];
            corrupt += found[1];
            if (progress != null) {
                progress.printf("crash %d: %,d acknowledged writes checked so far, %d lost, %d corrupt%n", crashes,
                        ledger.acknowledgedWrites(), lost, corrupt);
            }
            Files.deleteIfExists(sideLog);
        }
        return new Result(crashes, ledger.acknowledgedWrites(), lost, corrupt, List.copyOf(failures), workDir);
    }

    private Process startChild(Path db, Path sideLog, Path temp, long roundSeed) throws IOException {
        List<String> cmd = ChildJvm.command(null, List.of("-Djava.io.tmpdir=" + temp), KillChild.class, db.toString(), sideLog.toString(),
                Long.toString(roundSeed), Integer.toString(THREADS), durability.toString());
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Reads the child's output up to {@code expected}; what came before goes to {@code seen}. */
    private static boolean awaitLine(Process child, String expected, List<String> seen) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream()));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            seen.add(line);
            if (line.equals(expected)) {
                return true;
            }
        }
        return false;
    }

    private static String drain(Process child) throws IOException {
        return new String(child.getInputStream().readAllBytes()).strip();
    }

    /** Rebuilds each thread's writes from its seed and records what the side log says of them. */
    private void addRound(Ledger ledger, SideLog.Entries entries, long roundSeed) {
        for (var e : entries.begun().entrySet()) {
            int thread = e.getKey();
            TreeSet<Integer> begun = e.getValue();
            TreeSet<Integer> acked = entries.acknowledged().getOrDefault(thread, new TreeSet<>());
            Workload workload = new Workload(KillChild.threadSeed(roundSeed, thread), KillChild.options(durability).dimension()
                    .orElse(dev.tala.engine.Options.DEFAULT_DIMENSION));
            for (int i = 0; i <= begun.last(); i++) {
                Workload.Write w = workload.next();
                ledger.begin(w.effects());
                if (acked.contains(i)) {
                    ledger.acknowledge(w.effects());
                }
            }
        }
    }

    /** Reopens, checks, settles in-flight writes; returns {lost, corrupt}. */
    private int[] check(Path db, Ledger ledger, List<String> failures, int round) {
        int lost = 0;
        int corrupt = 0;
        try (TalaDB tala = TalaDB.open(db, KillChild.options(durability).toBuilder().createIfMissing(false).build())) {
            Set<IntentId> present = new HashSet<>();
            try (Snapshot s = tala.snapshot()) {
                s.forEachIntent((Intent i) -> present.add(i.id()));
            }
            for (Ledger.Violation v : ledger.check(tala::get, present)) {
                if (v.lost()) {
                    lost++;
                } else {
                    corrupt++;
                }
                failures.add("after crash " + round + ": " + v);
            }
            ledger.settle(tala::get);
        } catch (RuntimeException e) {
            corrupt++;
            failures.add("after crash " + round + ": the database did not open: " + e);
            return new int[] {lost, corrupt};
        }
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(db));
        for (VerifyReport.Problem p : verify.problems()) {
            corrupt++;
            failures.add("after crash " + round + ": verify: " + p);
        }
        return new int[] {lost, corrupt};
    }
}
