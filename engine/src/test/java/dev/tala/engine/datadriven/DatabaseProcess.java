package dev.tala.engine.datadriven;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import dev.tala.core.testing.datadriven.TestCase;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The life of the database a file's cases share, as a process would live it: opened with
 * options, closed, reopened, killed, or cut off by a power loss. A killed or crashed process
 * goes without closing anything, so nothing it buffered after its last force reaches the disk.
 */
final class DatabaseProcess {
    private final Path work;
    private final Path dir;
    /** The open database; after a close the closed one, whose calls are refused; null after a crash. */
    private TalaDB db;
    private boolean open;
    /** The layer the database runs on, or the one a killed process left for the next; null when none. */
    private FaultInjectingFileLayer fault;
    private int layersMade;

    DatabaseProcess(Path work, Path dir) {
        this.work = work;
        this.dir = dir;
    }

    boolean isOpen() {
        return open;
    }

    /** The database, open or closed; a case that needs one when none was opened is a bad file. */
    TalaDB database(TestCase c) {
        if (db == null) {
            throw c.bad(c.command() + " needs a database: open one first");
        }
        return db;
    }

    /**
     * {@code open [dim=N] [memtable=BYTES] [durability=sync|none|batch:MS] [type=f32|f16|bf16|int8]
     * [cold=TYPE:LEVEL] [target=BYTES] [compaction=off|background] [create=true|false] [fault]
     * [readonly]}: options not given are left to the database (a new one's defaults, or what
     * OPTIONS recorded). Background compaction is off unless asked for, so that the segments a
     * case lists depend only on the file's commands. {@code fault} runs the database on a
     * fault-injecting file layer, which {@code crash} and {@code kill} need.
     */
    void open(TestCase c) {
        if (open) {
            throw c.bad("the database is open; close it first, or reopen it");
        }
        boolean readOnly = false;
        boolean withFaults = false;
        for (String word : c.words()) {
            switch (word) {
                case "readonly" -> readOnly = true;
                case "fault" -> withFaults = true;
                default -> throw c.bad("open takes the words fault and readonly, not " + word);
            }
        }
        Options.Builder b = options(c);
        if (withFaults) {
            if (fault == null) {
                fault = new FaultInjectingFileLayer(work.resolve("stash-" + layersMade++));
            }
            b.fileLayer(fault);
        } else {
            fault = null;
            b.fileLayer(LocalFileLayer.INSTANCE);
        }
        db = readOnly ? TalaDB.openReadOnly(dir, b.build()) : TalaDB.open(dir, b.build());
        open = true;
    }

    void reopen(TestCase c) {
        if (open) {
            open = false;
            db.close();
        }
        open(c);
    }

    /** Closes the database (again, if it was: close is idempotent). */
    void close(TestCase c) {
        TalaDB closing = database(c);
        open = false;
        closing.close();
    }

    /**
     * The power goes: every file keeps what its last force made durable ({@code mode} says what
     * becomes of the rest), and the process dies with it.
     */
    void crash(TestCase c, PowerLossMode mode, long seed) throws IOException {
        FaultInjectingFileLayer layer = dieAbruptly(c);
        layer.powerLoss(mode, seed);
        fault = null;
    }

    /**
     * The process dies and the machine runs on: what it wrote and did not force is still there
     * for the next open (through the same layer, given {@code fault}), until a crash.
     */
    void kill(TestCase c) throws IOException {
        dieAbruptly(c).kill();
    }

    /** Closes an open database, whatever state the file left it in. */
    void shutDown() {
        if (open) {
            open = false;
            db.close();
        }
    }

    /** Refuses a crash or kill of a database that is not open on the fault-injecting layer. */
    void requireFaults(TestCase c) {
        if (!open || fault == null) {
            throw c.bad(c.command() + " needs a database opened with fault");
        }
    }

    /** Stops the process at once: every later file operation fails, so its close writes nothing. */
    private FaultInjectingFileLayer dieAbruptly(TestCase c) {
        requireFaults(c);
        FaultInjectingFileLayer layer = fault;
        layer.crashAfter(0);
        try {
            db.close(); // stops its threads; fails at the crash point, as a dead process would
        } catch (RuntimeException expected) {
            // the close could not force the WAL: nothing after the crash reaches the disk
        }
        open = false;
        db = null;
        return layer;
    }

    private static Options.Builder options(TestCase c) {
        Options.Builder b = Options.builder()
                .backgroundCompaction(choice(c, "compaction", "off", "background").equals("background"))
                .createIfMissing(choice(c, "create", "true", "false").equals("true"));
        if (c.has("dim")) {
            b.dimension(c.getInt("dim", 0));
        }
        if (c.has("memtable")) {
            b.memtableBytes(c.getLong("memtable"));
        }
        if (c.has("durability")) {
            b.durability(durability(c, c.get("durability")));
        }
        if (c.has("target")) {
            b.targetSegmentBytes(c.getLong("target"));
        }
        if (c.has("type")) {
            b.embeddingType(embeddingType(c, c.get("type")));
        }
        if (c.has("cold")) {
            String[] typeAndLevel = c.get("cold").split(":");
            if (typeAndLevel.length != 2 || !typeAndLevel[1].matches("[0-9]+")) {
                throw c.bad("cold= is TYPE:LEVEL, e.g. int8:1");
            }
            b.coldEmbeddingType(embeddingType(c, typeAndLevel[0]), Integer.parseInt(typeAndLevel[1]));
        }
        return b;
    }

    // A misspelt option is a mistake of the file, not an error of the database to print.

    /** The value of {@code key=}, one of {@code values}; the first when not given. */
    private static String choice(TestCase c, String key, String... values) {
        String value = c.get(key, values[0]);
        if (!List.of(values).contains(value)) {
            throw c.bad(key + "= is one of " + String.join(", ", values) + ", not " + value);
        }
        return value;
    }

    private static EmbeddingType embeddingType(TestCase c, String label) {
        try {
            return EmbeddingType.valueOf(label.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw c.bad("no embedding type " + label + " (f32, f16, bf16, int8)");
        }
    }

    private static Durability durability(TestCase c, String text) {
        try {
            return Durability.parse(text);
        } catch (IllegalArgumentException e) {
            throw c.bad(e.getMessage());
        }
    }
}
