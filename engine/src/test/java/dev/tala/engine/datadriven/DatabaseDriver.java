package dev.tala.engine.datadriven;

import dev.tala.compaction.CompactionProgress;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.datadriven.DataDriven;
import dev.tala.core.testing.datadriven.TestCase;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the commands of {@code engine/src/test/resources/testdata} against one real database in a
 * directory of its own (docs/TESTING.md, "Data-driven tests", lists them). The database, its
 * named snapshots and the file layer it runs on are the state the cases of a file share.
 *
 * <p>An error the database throws (a {@link TalaException}, or the {@link IllegalArgumentException}
 * and {@link IllegalStateException} of its argument checks) is output, {@code error: Type:
 * message}, with names for ids and {@code <db>} for the directory, since a refusal is often what
 * a case checks. Anything else thrown is a bug of the test and fails it.
 */
public final class DatabaseDriver implements DataDriven.Handler, AutoCloseable {
    private final Path work;
    private final Path dir;
    private final DatabaseProcess process;
    private final Map<String, Snapshot> snapshots = new HashMap<>();

    /** A driver whose database lives in {@code work/db}. */
    public DatabaseDriver(Path work) {
        this.work = work;
        this.dir = work.resolve("db");
        this.process = new DatabaseProcess(work, dir);
    }

    @Override
    public String handle(TestCase c) throws IOException {
        try {
            return dispatch(c);
        } catch (TalaException | IllegalArgumentException | IllegalStateException e) {
            return "error: " + e.getClass().getSimpleName() + ": " + anonymous(e.getMessage()) + "\n";
        }
    }

    private String dispatch(TestCase c) throws IOException {
        if (Reads.isRead(c.command())) {
            return new Reads(process.database(c), c.has("at") ? snapshot(c, c.get("at")) : null).run(c);
        }
        return switch (c.command()) {
            case "open" -> nothing(() -> process.open(c));
            case "reopen" -> nothing(() -> process.reopen(c));
            case "close" -> nothing(() -> process.close(c));
            case "crash" -> crash(c);
            case "kill" -> nothing(() -> {
                process.requireFaults(c);
                releaseSnapshots(); // they die with the process
                process.kill(c);
            });
            case "put" -> nothing(() -> db(c).put(WriteArgs.intent(c, db(c).dimension())));
            case "delete" -> nothing(() -> db(c).delete(WriteArgs.name(c)));
            case "outcome" -> nothing(() -> db(c).attachOutcome(WriteArgs.name(c),
                    WriteArgs.status(c, c.get("status")), WriteArgs.outcome(c)));
            case "batch" -> nothing(() -> db(c).write(batch(c)));
            case "sync-wal" -> nothing(() -> db(c).syncWal());
            case "flush" -> nothing(() -> db(c).flush());
            case "compact" -> Reports.compaction(db(c).compact());
            case "compact-range" -> Reports.compaction(db(c).compactRange(c.getLong("from"), c.getLong("to"),
                    CompactionProgress.Listener.NONE));
            case "snapshot" -> nothing(() -> takeSnapshot(c));
            case "release" -> nothing(() -> snapshot(c, c.word()).close());
            case "stats" -> Reports.stats(db(c).stats());
            case "segments" -> Reports.segments(db(c).liveSegments());
            case "durability" -> db(c).durability() + "\n";
            case "recovery" -> Reports.recovery(db(c).recoveryReport());
            case "verify" -> verify(c);
            default -> throw c.bad("unknown command " + c.command());
        };
    }

    private interface Call {
        void run() throws IOException;
    }

    /** Runs a call whose output is nothing (or its error): writes, maintenance, the lifecycle. */
    private static String nothing(Call call) throws IOException {
        call.run();
        return "";
    }

    private TalaDB db(TestCase c) {
        return process.database(c);
    }

    /**
     * {@code crash [mode=drop|torn|zero|sectors] [seed=N]}: a power loss (the seed picks how much
     * of an unforced tail a torn, zeroed or sector-wise loss keeps). The process dies with it,
     * and its snapshots with the process.
     */
    private String crash(TestCase c) throws IOException {
        PowerLossMode mode = switch (c.get("mode", "drop")) {
            case "drop" -> PowerLossMode.DROP_UNSYNCED;
            case "torn" -> PowerLossMode.TORN_TAIL;
            case "zero" -> PowerLossMode.ZERO_FILLED_TAIL;
            case "sectors" -> PowerLossMode.LOST_SECTORS;
            default -> throw c.bad("mode= is drop, torn, zero or sectors");
        };
        long seed = c.getLong("seed", 0);
        process.requireFaults(c);
        releaseSnapshots();
        process.crash(c, mode, seed);
        return "";
    }

    /** {@code batch} with one write per input line (put, delete, outcome), applied atomically. */
    private WriteBatch batch(TestCase c) {
        int dimension = db(c).dimension();
        List<TestCase> lines = c.inputAsCommands();
        if (lines.isEmpty()) {
            throw c.bad("a batch lists its writes on the lines below it");
        }
        WriteBatch batch = new WriteBatch();
        for (TestCase line : lines) {
            WriteArgs.addTo(batch, line, dimension);
        }
        return batch;
    }

    /** {@code snapshot NAME}: a snapshot taken again under a name releases the one it replaces. */
    private void takeSnapshot(TestCase c) {
        Snapshot s = db(c).snapshot();
        Snapshot before = snapshots.put(c.word(), s);
        if (before != null) {
            before.close();
        }
    }

    /** A released snapshot stays known by its name, so that a case can show it refuses reads. */
    private Snapshot snapshot(TestCase c, String name) {
        Snapshot s = snapshots.get(name);
        if (s == null) {
            throw c.bad("no snapshot " + name + " was taken");
        }
        return s;
    }

    private void releaseSnapshots() {
        for (Snapshot s : snapshots.values()) {
            s.close();
        }
        snapshots.clear();
    }

    /** {@code verify}: every checksum of the closed database; {@code clean}, or one line per problem. */
    private String verify(TestCase c) {
        if (process.isOpen()) {
            throw c.bad("verify reads a closed database; close it first");
        }
        VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        if (report.isClean()) {
            return "clean\n";
        }
        return Text.lines(report.problems().stream().map(p -> anonymous(p.toString())).toList());
    }

    /** A message without what changes from run to run: ids become names, directories placeholders. */
    private String anonymous(String message) {
        String m = String.valueOf(message).replace(dir.toAbsolutePath().toString(), "<db>")
                .replace(dir.toString(), "<db>")
                .replace(work.toAbsolutePath().toString(), "<work>");
        return IntentNames.nameIds(m);
    }

    /** Releases the snapshots and closes the database, whatever state the file left them in. */
    @Override
    public void close() {
        releaseSnapshots();
        process.shutDown();
    }
}
