package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.TalaException;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A regular file where wal/ or segments/ belongs, met by each kind of open. The CLI's audit
 * covers wal/ through recover and stats (opens that may not create); these cover segments/,
 * the open that may create a database, and what must still be accepted.
 */
class FileWhereDirectoryBelongsTest {
    private static final int DIM = 4;

    @TempDir
    Path tmp;

    private static Options.Builder options() {
        return Options.builder().dimension(DIM);
    }

    private Path databaseWithOneIntent(Intent intent) {
        Path dir = tmp.resolve("db");
        try (TalaDB db = TalaDB.open(dir, options().build())) {
            db.put(intent);
        }
        return dir;
    }

    private static void replaceWithFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
        Files.writeString(dir, "x");
    }

    /**
     * With segments/ a file and nothing flushed, listing it finds no segments: a read-only open
     * would serve the WAL alone as if nothing was missing. The message names the segment files,
     * not the WAL's.
     */
    @Test
    void aSegmentsPathThatIsAFileIsRefusedByEveryOpen() throws IOException {
        Path dir = databaseWithOneIntent(new RandomIntents(1, DIM).next());
        Path segments = dir.resolve("segments");
        replaceWithFile(segments);
        String expected = segments + " is not a directory but a file; the database keeps its segment files in that"
                + " directory";
        assertEquals(expected, assertThrows(TalaException.class, () -> TalaDB.openReadOnly(dir)).getMessage());
        assertEquals(expected, assertThrows(TalaException.class,
                () -> TalaDB.open(dir, options().createIfMissing(false).build())).getMessage());
        assertEquals(expected, assertThrows(TalaException.class,
                () -> TalaDB.open(dir, options().createIfMissing(true).build())).getMessage());
    }

    /** The open that may create takes its own path to the check; it must not reach "already exists". */
    @Test
    void aWalPathThatIsAFileIsRefusedByAnOpenThatMayCreate() throws IOException {
        Path dir = databaseWithOneIntent(new RandomIntents(2, DIM).next());
        Path wal = dir.resolve("wal");
        replaceWithFile(wal);
        TalaException e = assertThrows(TalaException.class,
                () -> TalaDB.open(dir, options().createIfMissing(true).build()));
        assertEquals(wal + " is not a directory but a file; the database keeps its WAL files in that directory",
                e.getMessage());
    }

    /** A new database is not started in a directory whose 'wal' is someone's file, and leaves nothing there. */
    @Test
    void aNewDatabaseIsNotCreatedBesideAStrayWalFile() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("fresh"));
        Files.writeString(dir.resolve("wal"), "notes");
        TalaException e = assertThrows(TalaException.class,
                () -> TalaDB.open(dir, options().createIfMissing(true).build()));
        assertTrue(e.getMessage().startsWith(dir.resolve("wal") + " is not a directory but a file"), e.getMessage());
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(1, left.count(), "only the stray file, no OPTIONS or LOCK");
        }
    }

    /** A symbolic link to a directory is a directory to the check, as to every other use of the path. */
    @Test
    void aSymlinkedWalOrSegmentsDirectoryIsAccepted() throws IOException {
        Intent intent = new RandomIntents(3, DIM).next();
        Path dir = databaseWithOneIntent(intent);
        for (String name : new String[] {"wal", "segments"}) {
            Path moved = Files.move(dir.resolve(name), tmp.resolve("elsewhere-" + name));
            Files.createSymbolicLink(dir.resolve(name), moved);
        }
        try (TalaDB db = TalaDB.openReadOnly(dir)) {
            assertEquals(intent.id(), db.get(intent.id()).orElseThrow().id());
        }
        try (TalaDB db = TalaDB.open(dir, options().createIfMissing(false).build())) {
            assertEquals(intent.id(), db.get(intent.id()).orElseThrow().id());
            db.flush();
        }
        assertFalse(Files.isRegularFile(dir.resolve("wal")));
    }

    /**
     * A path below a regular file cannot exist: the lookup fails with "Not a directory", an
     * answer about the path, not a failure to look. docs/CLI.md: a missing database is
     * "no database at DIR (...)".
     */
    @Test
    void aPathBelowARegularFileIsNoDatabase() throws IOException {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        Path dir = file.resolve("db");
        TalaException e = assertThrows(TalaException.class,
                () -> TalaDB.open(dir, options().createIfMissing(false).build()));
        assertEquals("no database at " + dir + " (the directory does not exist)", e.getMessage());
        TalaException ro = assertThrows(TalaException.class, () -> TalaDB.openReadOnly(dir));
        assertEquals("no database at " + dir + " (the directory does not exist)", ro.getMessage());
    }
}
