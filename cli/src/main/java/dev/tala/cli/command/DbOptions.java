package dev.tala.cli.command;

import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import picocli.CommandLine.Option;

/** The options every command shares: which database, and how to print. */
public final class DbOptions {
    @Option(names = "--db", paramLabel = "DIR", converter = NonEmptyPath.class, defaultValue = "./tala-data",
            description = "The database directory (default: ${DEFAULT-VALUE}).")
    Path db;

    @Option(names = "--json", description = "Print machine-readable JSON instead of tables.")
    boolean json;

    @Option(names = "--verbose", description = "On error, print the stack trace too.")
    boolean verbose;

    public Path dir() {
        return db;
    }

    public boolean json() {
        return json;
    }

    /**
     * Refuses, as an open would, a directory without {@code file} (OPTIONS or MANIFEST), for the
     * commands that read the files without opening the database; the reason names what is missing.
     */
    public void requireDatabaseFile(Path file) {
        if (Files.exists(file)) {
            return;
        }
        if (Files.exists(db) && !Files.isDirectory(db)) {
            throw new TalaException(db + " is a file, not a database directory");
        }
        if (!Files.notExists(file)) {
            // Neither there nor surely absent: the lookup failed (permission, a link loop), and
            // the system's reason says more than "no database".
            try {
                Files.readAttributes(file, BasicFileAttributes.class);
                return;
            } catch (IOException e) {
                throw new StorageException("cannot open " + db, e);
            }
        }
        throw new TalaException("no database at " + db + (Files.exists(db) ? " (no " + file.getFileName() + " file)"
                : " (the directory does not exist)"));
    }

    /** Opens an existing database for writing; a missing one is an error, not an accident to create. */
    public TalaDB openExisting(Options.Builder options) {
        return TalaDB.open(db, options.createIfMissing(false).build());
    }

    /**
     * Opens an existing database to read it only: nothing in it changes, damage is left for
     * {@code recover} (or any writable open) to repair, and other readers may look at once.
     */
    public TalaDB openReadOnly() {
        return TalaDB.openReadOnly(db);
    }
}
