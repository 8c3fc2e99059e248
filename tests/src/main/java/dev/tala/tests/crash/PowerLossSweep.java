package dev.tala.tests.crash;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.VerifyReport;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.recovery.manifest.ManifestState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Sweeps every crash point of a scenario: for k = 0, 1, 2, ... build the scenario's state,
 * let the simulated machine die after the k-th file operation of the crash window, cut the
 * power, reopen, and check DESIGN.md's invariants (no acknowledged write lost, no deleted id
 * back, the database opens, verify is clean, and it opens again after that). Stops at the
 * first k the window survives.
 *
 * <p>The invariants alone let a missing sync through when what it protects is put right by
 * recovery: a segment of the state before the window that a power loss brings back unlisted
 * is moved to lost/, and the database still opens with every write. So the reopen's recovery
 * report is checked too: a segment the MANIFEST listed (durably), or had removed as a
 * compaction input, when the window began is never moved to lost/ (only an output of the
 * window whose edit was not durable may be), and a window that ran to its end and was closed
 * leaves nothing for recovery to do at all (RECOVERY.md's tables: every step done on disk
 * needs nothing).
 */
public final class PowerLossSweep {
    /** What one sweep covered and found. */
    public record Result(String scenario, PowerLossMode mode, int crashPoints, boolean complete,
                         long acknowledgedWrites, List<String> failures) {
        public boolean passed() {
            return failures.isEmpty();
        }

        @Override
        public String toString() {
            return "sweep " + scenario + " (" + mode.name().toLowerCase(java.util.Locale.ROOT) + "): " + crashPoints
                    + " crash points" + (complete ? " (all of the window)" : " (stopped at the limit; the window is longer)")
                    + ", " + acknowledgedWrites + " acknowledged writes checked, "
                    + (failures.isEmpty() ? "no violations" : failures.size() + " FAILURES");
        }
    }

    private PowerLossSweep() {
    }

    /**
     * @param maxPoints stop after this many crash points even if the window is longer ({@link Result#complete()} says)
     */
    public static Result run(CrashScenario scenario, Path workDir, PowerLossMode mode, long seed, int maxPoints) {
        List<String> failures = new ArrayList<>();
        long acknowledged = 0;
        int points = 0;
        boolean complete = false;
        for (int k = 0; k < maxPoints; k++) {
            Path root = workDir.resolve(scenario.name() + "-" + k);
            Point point = crashAt(scenario, root, mode, seed + k, k);
            acknowledged += point.acknowledged;
            for (String f : point.failures) {
                failures.add((point.crashed ? "crash after operation " + k + " (" + point.crashedAt + ")"
                        : "no crash (the window and close took at most " + k + " operations)") + ": " + f);
            }
            if (point.failures.isEmpty()) {
                deleteTree(root);
            }
            if (!point.crashed) {
                complete = true; // the window ended before the k-th operation: every point was swept
                break;
            }
            points++;
        }
        return new Result(scenario.name(), mode, points, complete, acknowledged, List.copyOf(failures));
    }

    /** One crash point: whether the machine died in the window, and what the check found. */
    public record Point(boolean crashed, String crashedAt, long acknowledged, List<String> failures, int lost,
                        int corrupt) {
    }

    /** Builds the scenario, crashes after {@code k} operations of its window, cuts the power, checks. */
    public static Point crashAt(CrashScenario scenario, Path root, PowerLossMode mode, long seed, int k) {
        Path dir = root.resolve("db");
        Ledger ledger = new Ledger();
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(root.resolve("stash"));
        TalaDB db = TalaDB.open(dir, scenario.prepareOptions().toBuilder().fileLayer(fs).build());
        scenario.prepare(db, ledger);
        FaultInjectingFileLayer crashing = fs;
        RuntimeException windowError = null;
        Set<Long> segmentsBefore;
        if (scenario.crashesDuringOpen()) {
            // The machine dies with the database open; the crash window is the next open.
            powerLoss(fs, mode, seed);
            closeQuietly(db);
            ManifestState durable = manifestState(dir);
            segmentsBefore = new HashSet<>(durable.segments().keySet());
            segmentsBefore.addAll(durable.obsolete());
            crashing = new FaultInjectingFileLayer(root.resolve("stash2"));
            crashing.crashAfter(k);
            try (TalaDB reopened = TalaDB.open(dir, scenario.options().toBuilder().fileLayer(crashing).build())) {
                scenario.crashWindow(reopened, ledger);
            } catch (RuntimeException crash) {
                windowError = crash; // expected at the crash point
            }
        } else {
            // Published segments only: a background flush may have appended its edit and not yet
            // forced it, and a crash at that force rightly leaves its segment unlisted.
            segmentsBefore = new HashSet<>();
            for (var published : db.liveSegments()) {
                segmentsBefore.add(published.id());
            }
            segmentsBefore.addAll(manifestState(dir).obsolete());
            fs.crashAfter(k);
            try {
                scenario.crashWindow(db, ledger);
            } catch (RuntimeException crash) {
                windowError = crash; // expected at the crash point
            }
            closeQuietly(db);
        }
        boolean crashed = crashing.hasCrashed();
        String crashedAt = crashing.crashedAt();
        powerLoss(crashing, mode, seed);
        Check check = check(scenario, dir, ledger, segmentsBefore, !crashed && windowError == null);
        List<String> failures = new ArrayList<>(check.failures);
        if (!crashed && windowError != null) {
            // Only the simulated crash may end the window early; anything else is a broken scenario or a bug.
            failures.addFirst("the crash window failed without a crash: " + windowError);
        }
        return new Point(crashed, crashedAt, ledger.acknowledgedWrites(), failures, check.lost, check.corrupt);
    }

    private record Check(List<String> failures, int lost, int corrupt) {
    }

    /** Stops the dead process's threads; the machine is down, so closing may fail. */
    public static void closeQuietly(TalaDB db) {
        try {
            db.close();
        } catch (RuntimeException afterCrash) {
            // expected after a crash
        }
    }

    private static void powerLoss(FaultInjectingFileLayer fs, PowerLossMode mode, long seed) {
        try {
            fs.powerLoss(mode, seed);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reopens after the power loss and checks the invariants and what recovery did; returns what
     * is wrong.
     *
     * @param segmentsBefore the segments listed, or removed as compaction inputs, when the window
     *     began: none of them may be moved to lost/
     * @param completed whether the window ran to its end and the database was closed before the
     *     power loss: then recovery must find nothing to do
     */
    private static Check check(CrashScenario scenario, Path dir, Ledger ledger, Set<Long> segmentsBefore,
                               boolean completed) {
        List<String> failures = new ArrayList<>();
        int lost = 0;
        int corrupt = 0;
        FileLayer fs = LocalFileLayer.INSTANCE;
        try (TalaDB db = TalaDB.open(dir, scenario.options().toBuilder().fileLayer(fs).build())) {
            RecoveryReport report = db.recoveryReport();
            for (RecoveryReport.Action a : report.actions()) {
                OptionalLong id = DatabaseLayout.segmentId(Path.of(a.file()));
                if (a.kind() == RecoveryReport.Action.Kind.MOVED_TO_LOST && id.isPresent()
                        && segmentsBefore.contains(id.getAsLong())) {
                    // Listed or obsolete before the window: only an edit or a deletion that was
                    // not made durable can leave it unlisted in segments/.
                    failures.add("recovery moved segment " + id.getAsLong() + ", listed or obsolete when the crash"
                            + " window began, to lost/: " + a);
                    corrupt++;
                }
            }
            if (completed && (!report.actions().isEmpty() || !report.isClean())) {
                // Everything the window did was forced and synced before close returned.
                failures.add("the window ran to its end and the database was closed, yet recovery after the power"
                        + " loss had to act: " + report.summary());
                corrupt++;
            }
            Set<IntentId> present = new HashSet<>();
            try (Snapshot s = db.snapshot()) {
                s.forEachIntent((Intent i) -> present.add(i.id()));
            }
            for (Ledger.Violation v : ledger.check(db::get, present)) {
                failures.add(v.toString());
                if (v.lost()) {
                    lost++;
                } else {
                    corrupt++;
                }
            }
        } catch (RuntimeException e) {
            failures.add("the database did not open: " + e);
            return new Check(failures, lost, corrupt + 1);
        }
        VerifyReport verify = DatabaseVerifier.verify(fs, new DatabaseLayout(dir));
        for (VerifyReport.Problem p : verify.problems()) {
            failures.add("verify: " + p);
            corrupt++;
        }
        // The open above repaired the directory and started a WAL file of its own; the next
        // open must accept what it left (a repair that leaves damage behind shows only here).
        try {
            TalaDB.open(dir, scenario.options().toBuilder().fileLayer(fs).build()).close();
        } catch (RuntimeException e) {
            failures.add("the database did not open a second time: " + e);
            corrupt++;
        }
        return new Check(failures, lost, corrupt);
    }

    /** What {@code dir}'s MANIFEST says now, as an open would read it (a torn last edit ignored). */
    private static ManifestState manifestState(Path dir) {
        try {
            return ManifestReader.read(LocalFileLayer.INSTANCE, new DatabaseLayout(dir).manifestFile()).state();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path root) {
        try {
            FileTrees.delete(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
