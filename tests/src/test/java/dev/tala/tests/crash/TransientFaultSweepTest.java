package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.compaction.LeveledPolicy;
import dev.tala.compaction.LeveledSettings;
import dev.tala.engine.Options;
import dev.tala.engine.Snapshot;
import dev.tala.wal.Durability;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.VerifyReport;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.recovery.manifest.ManifestState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One transient fault at each file operation of a window (flush, compaction, move, MANIFEST
 * rewrite, WAL retirement), then the database lives on: reads must keep their answers, a
 * database that did not fail must take writes, flushes and compactions, and after close and a
 * power loss every acknowledged write is there, no deleted id is back, verify is clean.
 */
class TransientFaultSweepTest {
    /**
     * The long run sweeps every scenario, kind and ending; the default run the shorter windows,
     * closed, with failed forces (which fail every operation but a force as an I/O error does).
     */
    private static final boolean LONG = Boolean.getBoolean("tala.long");
    private static final Set<String> DEFAULT_SCENARIOS =
            Set.of("flush", "manifest-rewrite", "compaction", "compaction-move", "leveled-deletes");

    @TempDir
    Path work;

    static List<CrashScenario> scenarios() {
        List<CrashScenario> all = new ArrayList<>(
                Scenarios.all(1).stream().filter(s -> !s.crashesDuringOpen()).toList());
        all.add(leveledDeletes(1));
        String only = System.getProperty("sweep.only");
        return all.stream().filter(s -> only == null ? LONG || DEFAULT_SCENARIOS.contains(s.name())
                : s.name().matches(only)).toList();
    }

    static Stream<Arguments> sweeps() {
        return scenarios().stream().flatMap(s -> Stream.of(OneFaultFileLayer.Kind.values())
                .flatMap(k -> Stream.of(End.values())
                        .filter(e -> e.name().matches(System.getProperty("sweep.end", ".*")))
                        .filter(e -> e != End.REOPEN || k != OneFaultFileLayer.Kind.FAILED_FORCE)
                        .filter(e -> LONG || (e == End.CLOSE && k == OneFaultFileLayer.Kind.FAILED_FORCE))
                        .map(end -> Arguments.of(s.name(), k, end))));
    }

    /** How the process ends before the power loss. */
    enum End {
        /** It closes the database. */
        CLOSE,
        /** It is still running. */
        RUNNING,
        /**
         * It closes the database, and another process opens it on the same boot (unforced bytes
         * still in the page cache) and writes before closing too. Not after a failed force:
         * RECOVERY.md says such a reopen can lose what the force was meant to cover.
         */
        REOPEN
    }

    /**
     * Multi-level leveled compactions over deletes and outcome updates of older intents, with
     * small outputs (several per merge), then a full compaction that drops the tombstones.
     */
    static CrashScenario leveledDeletes(long seed) {
        return new CrashScenario() {
            @Override
            public String name() {
                return "leveled-deletes";
            }

            @Override
            public Options options() {
                return Options.builder().dimension(16).durability(Durability.sync()).memtableBytes(1 << 20)
                        .backgroundCompaction(false).targetSegmentBytes(8 * 1024)
                        .compactionPolicy(new LeveledPolicy(new LeveledSettings(2, 8 * 1024, 2, 4))).build();
            }

            @Override
            public void prepare(TalaDB db, Ledger ledger) {
                Workload w = new Workload(seed, 16);
                for (int round = 0; round < 4; round++) {
                    for (int i = 0; i < 70; i++) {
                        w.step(db, ledger);
                    }
                    db.flush();
                    if (round == 1) {
                        db.compactPending(p -> { });
                    }
                }
            }

            @Override
            public void crashWindow(TalaDB db, Ledger ledger) {
                db.compactPending(p -> { });
                db.compact(p -> { });
            }
        };
    }

    @ParameterizedTest(name = "{0} / {1} / close {2}")
    @MethodSource("sweeps")
    void everyTransientFaultKeepsTheInvariants(String scenario, OneFaultFileLayer.Kind kind, End close)
            throws Exception {
        CrashScenario s = scenarios().stream().filter(x -> x.name().equals(scenario)).findFirst().orElseThrow();
        List<String> failures = new ArrayList<>();
        int points = 0;
        for (int k = 0; k < 400; k++) {
            Path root = work.resolve(scenario + "-" + kind + "-" + k);
            List<String> found = new ArrayList<>();
            boolean fired = faultAt(s, kind, close, k, root, found);
            for (String f : found) {
                failures.add("fault " + k + ": " + f);
            }
            if (!fired) {
                break;
            }
            points++;
        }
        System.out.println("transient sweep " + scenario + " / " + kind + " / " + close + ": " + points
                + " fault points, " + failures.size() + " failures");
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * Builds the scenario, fails its window's k-th operation, lives on, loses power and checks;
     * false when the window took fewer than k + 1 operations (no fault fired).
     */
    private static boolean faultAt(CrashScenario s, OneFaultFileLayer.Kind kind, End close, int k, Path root,
                                   List<String> failures) throws IOException {
        Path dir = root.resolve("db");
        Ledger ledger = new Ledger();
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(root.resolve("stash"));
        OneFaultFileLayer fs = new OneFaultFileLayer(fault, kind);
        TalaDB db = TalaDB.open(dir, s.options().toBuilder().fileLayer(fs).build());
        s.prepare(db, ledger);
        Set<Long> segmentsBefore = new HashSet<>();
        db.liveSegments().forEach(m -> segmentsBefore.add(m.id()));
        segmentsBefore.addAll(manifest(dir).obsolete());
        fs.arm(k);
        RuntimeException windowError = null;
        try {
            s.crashWindow(db, ledger);
        } catch (RuntimeException e) {
            windowError = e;
        }
        fs.disarm();
        String failedOp = fs.failed();
        boolean fired = failedOp != null;
        String where = fired ? "[" + failedOp + "] " : "[no fault] ";
        boolean failed = db.stats().failed();
        if (!fired && windowError != null) {
            failures.add(where + "the window failed without a fault: " + windowError);
        }
        checkReads(db, ledger, where + "after the window: ", failures);
        if (!failed) {
            liveOn(db, ledger, where, failures);
        } else {
            try {
                db.delete(ledger.ids().iterator().next());
                failures.add(where + "a failed database took a delete");
            } catch (DatabaseFailedException expected) {
                // refused
            }
        }
        checkReads(db, ledger, where + "after living on: ", failures);
        boolean failedAtClose = db.stats().failed();
        PowerLossMode mode = PowerLossMode.values()[k % PowerLossMode.values().length];
        where = where + "(" + mode + ", " + close + ") ";
        if (close != End.RUNNING) {
            try {
                db.close();
            } catch (RuntimeException e) {
                if (!failedAtClose) {
                    failures.add(where + "close of a healthy database threw: " + e);
                }
            }
            if (close == End.REOPEN) {
                try (TalaDB again = TalaDB.open(dir, s.options().toBuilder().fileLayer(fault).build())) {
                    Workload w = new Workload(4242, again.dimension());
                    for (int i = 0; i < 20; i++) {
                        w.step(again, ledger);
                    }
                } catch (RuntimeException e) {
                    failures.add(where + "the reopen on the same boot failed: " + e);
                }
            }
            fault.powerLoss(mode, k);
        } else {
            fault.powerLoss(mode, k);
            PowerLossSweep.closeQuietly(db);
        }
        // An obsolete input whose delete failed is left for the next open to delete (ObsoleteFiles).
        boolean deleteFailed = fired && failedOp.startsWith("delete ") && failedOp.contains("/segments/");
        checkAfterReopen(s, dir, ledger, where, close == End.CLOSE && !failedAtClose && !deleteFailed,
                segmentsBefore, failures);
        if (failures.isEmpty()) {
            PowerLossSweep.deleteTree(root);
        }
        return fired;
    }

    /** Deletes some intents, writes more, flushes and compacts: a healthy database must take it all. */
    private static void liveOn(TalaDB db, Ledger ledger, String where, List<String> failures) {
        try {
            int deleted = 0;
            for (IntentId id : new ArrayList<>(ledger.ids())) {
                if (ledger.current(id).isPresent() && deleted++ < 6) {
                    Map<IntentId, Optional<Intent>> effect = Map.of(id, Optional.empty());
                    ledger.begin(effect);
                    db.delete(id);
                    ledger.acknowledge(effect);
                }
            }
            Workload w = new Workload(777, db.dimension());
            for (int i = 0; i < 30; i++) {
                w.step(db, ledger);
            }
            db.flush();
            db.compact();
            for (int i = 0; i < 10; i++) {
                w.step(db, ledger);
            }
            db.flush();
        } catch (RuntimeException e) {
            if (!(e instanceof DatabaseFailedException && db.stats().failed())) {
                // (A background flush or compaction the fault hit may fail the database only now.)
                failures.add(where + "a database that did not fail refused to live on: " + e);
            }
        }
    }

    /** Adds to {@code failures} each way the database's reads disagree with the acknowledged writes. */
    static void checkReads(TalaDB db, Ledger ledger, String where, List<String> failures) {
        try {
            Set<IntentId> present = new HashSet<>();
            try (Snapshot snap = db.snapshot()) {
                snap.forEachIntent((Intent i) -> present.add(i.id()));
            }
            for (Ledger.Violation v : ledger.check(db::get, present)) {
                failures.add(where + v);
            }
        } catch (RuntimeException e) {
            failures.add(where + "reads failed: " + e);
        }
    }

    private static ManifestState manifest(Path dir) {
        try {
            return ManifestReader.read(LocalFileLayer.INSTANCE, new DatabaseLayout(dir).manifestFile()).state();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void checkAfterReopen(CrashScenario s, Path dir, Ledger ledger, String where, boolean healthy,
                                         Set<Long> segmentsBefore, List<String> failures) {
        FileLayer fs = LocalFileLayer.INSTANCE;
        DatabaseLayout layout = new DatabaseLayout(dir);
        try (TalaDB db = TalaDB.open(dir, s.options().toBuilder().fileLayer(fs).build())) {
            RecoveryReport report = db.recoveryReport();
            for (RecoveryReport.Action a : report.actions()) {
                OptionalLong id = DatabaseLayout.segmentId(Path.of(a.file()));
                if (a.kind() == RecoveryReport.Action.Kind.MOVED_TO_LOST
                        && (id.isEmpty() || segmentsBefore.contains(id.getAsLong()))) {
                    failures.add(where + "recovery moved a file to lost/: " + a);
                }
            }
            if (healthy && (!report.actions().isEmpty() || !report.isClean())) {
                failures.add(where + "a healthy database closed before the power loss, yet recovery acted: "
                        + report.summary());
            }
            Set<IntentId> present = new HashSet<>();
            try (Snapshot snap = db.snapshot()) {
                snap.forEachIntent((Intent i) -> present.add(i.id()));
            }
            for (Ledger.Violation v : ledger.check(db::get, present)) {
                failures.add(where + "after reopen: " + v);
            }
        } catch (RuntimeException e) {
            failures.add(where + "the database did not open: " + e);
            return;
        }
        ManifestState state = manifest(dir);
        try (Stream<Path> files = Files.list(layout.segmentDir())) {
            files.forEach(p -> {
                OptionalLong id = DatabaseLayout.segmentId(p);
                if (id.isEmpty() || !state.segments().containsKey(id.getAsLong())) {
                    failures.add(where + "orphan in segments/ after the reopen and close: " + p.getFileName());
                }
            });
        } catch (IOException e) {
            failures.add(where + "cannot list segments/: " + e);
        }
        VerifyReport verify = DatabaseVerifier.verify(fs, layout);
        for (VerifyReport.Problem p : verify.problems()) {
            failures.add(where + "verify: " + p);
        }
        try {
            TalaDB.open(dir, s.options().toBuilder().fileLayer(fs).build()).close();
        } catch (RuntimeException e) {
            failures.add(where + "the database did not open a second time: " + e);
        }
    }
}
