package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.tala.cli.InProcess.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an operator's audit of the CLI against paths and files it cannot use: what each command
 * says, and that the words match docs/CLI.md.
 */
class OperatorAuditTest {
    private static final String ID = "0198fc00-0000-7000-8000-000000000005";

    @TempDir
    Path work;

    /** Every command that is given a database directory, and inspect given a file. */
    private static List<String[]> commandsOn(Path db, Path file) {
        String d = db.toString();
        return List.of(new String[] {"stats", "--db", d}, new String[] {"get", "--db", d, ID},
                new String[] {"export", "--db", d}, new String[] {"recover", "--db", d},
                new String[] {"compact", "--db", d}, new String[] {"import", "--db", d, "-"},
                new String[] {"verify", "--db", d}, new String[] {"segments", "--db", d},
                new String[] {"inspect", file.toString()});
    }

    /**
     * A path the system cannot look at was called missing: "no database at DIR (the directory
     * does not exist)", "no such file: F". docs/CLI.md promises the system's reason instead. As
     * root, permissions do not stop a lookup, so a symbolic link to itself stands in for a
     * directory the user may not enter: both make the lookup fail with an error other than
     * "no such file".
     */
    @Test
    void aPathThatCannotBeLookedUpIsNotCalledMissing() throws IOException {
        Path loop = work.resolve("loop");
        Files.createSymbolicLink(loop, loop.getFileName());
        for (String[] args : commandsOn(loop, loop)) {
            Run r = tala(args);
            String line = String.join(" ", args) + " -> " + r.err();
            assertEquals(1, r.exit(), line);
            assertFalse(r.err().contains("does not exist") || r.err().contains("no such file")
                    || r.err().contains("no database"), line);
            assertTrue(r.err().contains(loop.toString()) && r.err().contains("Too many levels of symbolic links"), line);
        }
    }

    /**
     * The case an operator meets: a database in a directory of another user's, mode 700. It said
     * "no database at DIR (no OPTIONS file)" while OPTIONS is there. Skipped as root, whom
     * permissions do not stop (checked by trying, not by the user's name).
     */
    @Test
    void aDatabaseInADirectoryTheUserMayNotEnterIsNotCalledMissing() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        Path segment = db.resolve("segments").resolve("00000000000000000001.tbf");
        Files.writeString(segment, "x");
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("---------"));
        try {
            assumeFalse(Files.isReadable(db), "permissions do not stop this user (root)");
            for (String[] args : commandsOn(db, segment)) {
                Run r = tala(args);
                String line = String.join(" ", args) + " -> " + r.err();
                assertEquals(1, r.exit(), line);
                assertFalse(r.err().contains("does not exist") || r.err().contains("no such file")
                        || r.err().contains("no database"), line);
                assertTrue(r.err().contains("permission denied"), line);
            }
        } finally {
            Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /**
     * A line that is not UTF-8 was refused with the decoder's own words, "not valid UTF-8 (Input
     * length = 1)", which name neither where in the line nor which bytes. A line can be megabytes
     * long; the operator needs the byte to look at.
     */
    @Test
    void importNamesWhereInTheLineTheBytesAreNotUtf8() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        String good = "{\"id\":\"0198fc00-0000-7000-8000-000000000001\",\"timestamp\":5,\"command\":\"c\",\"embedding\":[1,2,3,4]}\n";
        String prefix = "{\"id\":\"0198fc00-0000-7000-8000-000000000002\",\"timestamp\":5,\"command\":\"d\u00e9";
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        bytes.writeBytes(good.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] head = prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        bytes.writeBytes(head);
        bytes.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xFE});
        bytes.writeBytes("\",\"embedding\":[1,2,3,4]}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Path file = work.resolve("bad.jsonl");
        Files.write(file, bytes.toByteArray());
        Run r = tala("import", "--db", db.toString(), file.toString());
        assertEquals(1, r.exit(), r.err());
        // Counted from 1, like a column; the é before it is two bytes.
        int at = head.length + 1;
        assertEquals("tala import: " + file + ":2: not valid UTF-8 at byte " + at + " of the line (0xff)", r.err().strip());
    }

    /**
     * A database whose wal/ is a regular file: every writable open failed with "cannot start a
     * WAL file in DIR/wal: already exists", which names no cause, while verify called the
     * database clean (exit 0) and stats served it: a listing of wal/ found no files, the same as
     * a database that has none. docs/CLI.md: the read-only commands judge the files as any open
     * does, with the same errors; verify exits 1 when it finds a problem.
     */
    @Test
    void aWalPathThatIsAFileIsAProblemEveryCommandNames() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        Path lines = work.resolve("lines.jsonl");
        Files.writeString(lines, "{\"id\":\"" + ID + "\",\"timestamp\":5,\"command\":\"c\",\"embedding\":[1,2,3,4]}\n");
        assertEquals(0, tala("import", "--db", db.toString(), lines.toString()).exit());
        Path wal = db.resolve("wal");
        try (var files = Files.list(wal)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(wal);
        Files.writeString(wal, "x");

        Run verify = tala("verify", "--db", db.toString());
        assertEquals(1, verify.exit(), verify.out() + verify.err());
        assertTrue(verify.out().contains(wal.toString()) && verify.out().contains("not a directory"), verify.out());
        for (String command : List.of("recover", "stats")) {
            Run r = tala(command, "--db", db.toString());
            assertEquals(1, r.exit(), command + ": " + r.out() + r.err());
            assertTrue(r.err().contains(wal.toString()) && r.err().contains("not a directory"), command + ": " + r.err());
            assertFalse(r.err().contains("already exists"), command + ": " + r.err());
        }
    }

    /**
     * bench --intents N --write-amp M ran the write-amplification run of M intents and dropped
     * --intents without a word, exit 0: the run asked for was not the one made. --quick beside
     * either is refused for that reason (docs/CLI.md); --intents beside --write-amp is the same case.
     */
    @Test
    void benchRefusesIntentsBesideWriteAmp() {
        Path dir = work.resolve("bench");
        Run r = tala("bench", "--intents", "100000", "--write-amp", "1", "--db", dir.toString());
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("--intents") && r.err().contains("--write-amp"), r.err());
        assertFalse(Files.exists(dir), "a refused run leaves nothing behind");
    }
}
