package dev.tala.tests.corruption;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.TalaException;
import dev.tala.core.error.UnsupportedFormatException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.VerifyReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Runs one damage case on a fresh copy of a base database and judges it against DESIGN.md and
 * RECOVERY.md ("What each kind of damage leads to"):
 * <ol>
 *   <li>verify, run first (open repairs torn tails and rewrites the MANIFEST, erasing the
 *       evidence), must report a problem naming the damaged file;</li>
 *   <li>open either refuses with a {@link TalaException} naming the damaged file, and nothing
 *       else, or succeeds;</li>
 *   <li>after a successful open, every read equals the model or throws CorruptionException. The
 *       model is the history minus exactly the writes recovery reported dropping: a torn tail of
 *       the newest WAL file (the state as of the last intact record), or the writes of segments a
 *       torn MANIFEST tail orphaned into {@code lost/}. Anything dropped must be reported in the
 *       recovery report;</li>
 *   <li>the repaired copy reopens and still reads right.</li>
 * </ol>
 */
final class CaseRunner {
    private final BaseDatabase base;
    private final Damage damage;
    private final Path dir;
    private final List<String> failures = new ArrayList<>();
    private final Set<KnownIssue> known = EnumSet.noneOf(KnownIssue.class);

    private CaseRunner(BaseDatabase base, Damage damage, Path dir) {
        this.base = base;
        this.damage = damage;
        this.dir = dir.toAbsolutePath().normalize();
    }

    static CaseResult run(BaseDatabase base, Damage damage, Path dir) {
        DirectoryCopy.copy(base.dir(), dir);
        damage.applyTo(dir);
        return new CaseRunner(base, damage, dir).run();
    }

    private CaseResult run() {
        boolean verifyNamed = verifyFirst();
        TalaDB db;
        try {
            db = TalaDB.open(dir, BaseDatabase.OPEN_OPTIONS);
        } catch (TalaException e) {
            if (!namesDamagedFile(e)) {
                fail("open refused without naming " + damage.fileName() + ": " + ReadAudit.stackTrace(e));
            }
            return result(CaseResult.End.REFUSED_AT_OPEN, verifyNamed);
        } catch (Throwable t) {
            fail("open threw " + t.getClass().getName() + ", not a TalaException: " + ReadAudit.stackTrace(t));
            return result(CaseResult.End.BROKEN, verifyNamed);
        }
        CaseResult.End end;
        NavigableMap<IntentId, Intent> state;
        try {
            RecoveryReport report = db.recoveryReport();
            Predicate<History.Write> kept = keptWrites(report);
            state = base.history().stateOf(kept);
            end = judgeDrops(report, kept, state);
            ReadAudit.Result audit = ReadAudit.run(db, new ExpectedState(state), base.history().ids(),
                    damage.fileName(), damage.seed());
            audit.wrong().forEach(w -> fail("wrong read: " + w));
            if (end == CaseResult.End.READS_RIGHT && audit.refused() > 0) {
                end = CaseResult.End.READS_REFUSED;
            }
        } finally {
            close(db);
        }
        reopen(state);
        return result(end, verifyNamed);
    }

    /** Runs verify on the damaged copy; true when a problem names the damaged file. */
    private boolean verifyFirst() {
        VerifyReport verify;
        try {
            verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        } catch (Throwable t) {
            fail("verify threw instead of reporting: " + ReadAudit.stackTrace(t));
            return false;
        }
        boolean named = verify.problems().stream().anyMatch(p -> Path.of(p.file()).getFileName().toString()
                .equals(damage.fileName()) || p.what().contains(damage.fileName()));
        if (!named && !damage.isNoOp()) {
            waivable(KnownIssue.explainingUnreported(damage), "verify did not report the damage; it found "
                    + verify.problems());
        }
        return named;
    }

    /**
     * The writes the recovered database must hold: all of them except those after the last
     * sequence number recovery reached (a dropped WAL tail), those in segments it moved to
     * {@code lost/}, and those whose WAL records a truncation cut away.
     */
    private Predicate<History.Write> keptWrites(RecoveryReport report) {
        long recovered = report.lastSequence();
        Set<Integer> lost = new HashSet<>();
        for (RecoveryReport.Action a : report.actions()) {
            if (a.kind() == RecoveryReport.Action.Kind.MOVED_TO_LOST) {
                lost.addAll(base.segmentWrites().getOrDefault(Path.of(a.file()).getFileName().toString(), Set.of()));
            }
        }
        Set<Integer> cut = cutAway();
        return w -> w.lastSequence() <= recovered && !lost.contains(w.index()) && !cut.contains(w.index());
    }

    /** Writes whose WAL records a truncation removed or cut short. */
    private Set<Integer> cutAway() {
        Set<Integer> out = new HashSet<>();
        if (damage.kind().isWal() && damage.mode() == Damage.Mode.TRUNCATE) {
            LogLayout layout = LogLayout.wal(DamagePlanner.read(base.dir().resolve(damage.file())));
            for (LogLayout.Entry e : layout.entries()) {
                if (e.end() > damage.offset()) {
                    out.add(Objects.requireNonNull(base.history().startingAt(e.firstSequence()),
                            "no write starts at sequence " + e.firstSequence()).index());
                }
            }
        }
        return out;
    }

    /** Checks that whatever recovery dropped, it was allowed to drop and said so. */
    private CaseResult.End judgeDrops(RecoveryReport report, Predicate<History.Write> kept,
                                      NavigableMap<IntentId, Intent> state) {
        List<History.Write> dropped = base.history().writes().stream().filter(kept.negate()).toList();
        if (dropped.isEmpty()) {
            return CaseResult.End.READS_RIGHT;
        }
        String which = dropped.size() + " writes (sequences " + dropped.getFirst().firstSequence() + " to "
                + dropped.getLast().lastSequence() + ")";
        boolean allInThisWal = damage.kind().isWal() && dropped.stream().allMatch(w -> walWrites().contains(w.index()));
        boolean manifestDrop = damage.kind() == FileKind.MANIFEST;
        if (!allInThisWal && !manifestDrop) {
            fail("recovery dropped " + which + " that the damaged " + damage.fileName() + " does not hold");
        }
        if (damage.kind() == FileKind.OLDER_WAL) {
            // Damage in an older WAL file is never a torn tail: open must refuse, not drop.
            waivable(KnownIssue.explainingSilentLoss(damage), "recovery dropped " + which + " from an older WAL file");
        }
        boolean reported = !report.isClean();
        if (!reported) {
            waivable(KnownIssue.explainingSilentLoss(damage), "recovery dropped " + which + " but its report is clean: "
                    + report.summary());
        }
        if (manifestDrop) {
            checkOnlyAbsences(state, which);
        }
        return reported ? CaseResult.End.LOSS_REPORTED : CaseResult.End.LOSS_SILENT;
    }

    /**
     * After a MANIFEST tail is ignored, the ids of the orphaned segments may read as absent, and
     * nothing else may change: an id reading as an older version, or a deleted id coming back, is
     * a value the database never held at the end.
     */
    private void checkOnlyAbsences(NavigableMap<IntentId, Intent> state, String which) {
        NavigableMap<IntentId, Intent> full = base.history().finalState();
        Set<IntentId> changed = new TreeSet<>();
        for (IntentId id : base.history().ids()) {
            Intent now = state.get(id);
            if (now != null && !now.equals(full.get(id))) {
                changed.add(id);
            }
        }
        if (!changed.isEmpty()) {
            fail("after dropping " + which + ", " + changed.size()
                    + " ids read as an older version or a deleted intent back, e.g. " + changed.iterator().next());
        }
    }

    /** Indices of the writes whose records are in the damaged WAL file of the base. */
    private Set<Integer> walWrites() {
        Set<Integer> out = new HashSet<>();
        LogLayout layout = LogLayout.wal(DamagePlanner.read(base.dir().resolve(damage.file())));
        for (LogLayout.Entry e : layout.entries()) {
            History.Write w = base.history().startingAt(e.firstSequence());
            if (w != null) {
                out.add(w.index());
            }
        }
        return out;
    }

    /** The repaired copy opens again and reads the same (recovery is idempotent). */
    private void reopen(NavigableMap<IntentId, Intent> state) {
        TalaDB db;
        try {
            db = TalaDB.open(dir, BaseDatabase.OPEN_OPTIONS);
        } catch (Throwable t) {
            fail("the repaired copy did not open again: " + ReadAudit.stackTrace(t));
            return;
        }
        try {
            for (IntentId id : base.history().ids()) {
                try {
                    if (!Objects.equals(db.get(id).orElse(null), state.get(id))) {
                        fail("after reopening, get " + id + " read " + db.get(id) + ", expected " + state.get(id));
                    }
                } catch (CorruptionException refused) {
                    // still refused: the damaged region is still there, and still detected
                } catch (Throwable t) {
                    fail("after reopening, get " + id + " threw " + ReadAudit.stackTrace(t));
                }
            }
        } finally {
            close(db);
        }
    }

    private void close(TalaDB db) {
        try {
            db.close();
        } catch (Throwable t) {
            fail("close threw " + ReadAudit.stackTrace(t));
        }
    }

    private boolean namesDamagedFile(TalaException e) {
        String file = e instanceof CorruptionException c ? c.file()
                : e instanceof UnsupportedFormatException u ? u.file() : e.getMessage();
        if (e instanceof CorruptionException c && (c.offset() < 0 || c.offset() > damage.originalSize())) {
            fail("open named offset " + c.offset() + ", outside the damaged file of " + damage.originalSize() + " bytes");
        }
        return file != null && file.contains(damage.fileName());
    }

    private void waivable(KnownIssue issue, String message) {
        if (issue != null) {
            known.add(issue);
        } else {
            fail(message);
        }
    }

    private void fail(String message) {
        failures.add(message);
    }

    private CaseResult result(CaseResult.End end, boolean verifyNamed) {
        Set<CaseResult.End> allowed = DamageTable.allowed(damage);
        if (end != CaseResult.End.BROKEN && !allowed.contains(end)) {
            waivable(KnownIssue.explainingEnd(damage, end), "ended as \"" + end.label + "\"; for damage in the "
                    + damage.where().part() + " RECOVERY.md allows only " + allowed);
        }
        return new CaseResult(damage, end, verifyNamed, Set.copyOf(known), List.copyOf(failures));
    }
}
