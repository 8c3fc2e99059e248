package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an operator's audit of the CLI: what verify and segments say of a database damaged in
 * ways an operator meets. Runs the commands in this JVM, which is quicker than
 * {@link CliSubprocessTest}'s child processes.
 */
class DamagedDatabaseReportsTest {
    @TempDir
    Path work;

    private record Run(int exit, String out, String err) {
    }

    private static synchronized Run tala(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            int exit = TalaCli.run(args);
            return new Run(exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** A 4-dimensional database with two segments, each listed by its own MANIFEST edit. */
    private Path databaseWithTwoSegments() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        for (int batch = 0; batch < 2; batch++) {
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                int n = batch * 100 + i;
                lines.append(String.format("{\"id\":\"0198fc00-0000-7000-8000-%012x\",\"timestamp\":%d,"
                        + "\"command\":\"cmd %d\",\"embedding\":[1,%d,3,4]}%n", n, 1_000_000L + n, n, n + 1));
            }
            Path file = work.resolve("batch" + batch + ".jsonl");
            Files.writeString(file, lines);
            Run imported = tala("import", "--db", db.toString(), file.toString());
            assertEquals(0, imported.exit(), imported.err());
        }
        return db;
    }

    private static List<Path> segmentFiles(Path db) throws IOException {
        try (Stream<Path> files = Files.list(db.resolve("segments"))) {
            return files.filter(p -> p.toString().endsWith(".tbf")).sorted().toList();
        }
    }

    /** It printed "cannot be read: java.nio.file.FileSystemException: ...". */
    @Test
    void verifyNamesWhySegmentCannotBeReadWithoutAJavaClass() throws IOException {
        Path db = databaseWithTwoSegments();
        Path segment = segmentFiles(db).getFirst();
        Files.delete(segment);
        Files.createDirectory(segment);
        for (String[] args : List.of(new String[] {"verify", "--db", db.toString()},
                new String[] {"verify", "--db", db.toString(), "--json"})) {
            Run verify = tala(args);
            assertEquals(1, verify.exit(), verify.out() + verify.err());
            assertTrue(verify.out().contains("cannot be read: " + segment + ": not a regular file but a directory"),
                    verify.out());
            assertFalse(verify.out().contains("java.nio") || verify.out().contains("Exception"), verify.out());
        }
    }

    /**
     * A MANIFEST whose last edit is torn: segments listed the segments before it and said
     * nothing, so a cut just after the header printed "no segments yet" beside segment files
     * holding every intent. It still lists what an open sees, and now warns.
     */
    @Test
    void segmentsWarnsOfATornManifestEdit() throws IOException {
        Path db = databaseWithTwoSegments();
        Path manifest = db.resolve("MANIFEST");
        long length = Files.size(manifest);
        try (RandomAccessFile f = new RandomAccessFile(manifest.toFile(), "rw")) {
            f.setLength(length - 7);
        }
        Run segments = tala("segments", "--db", db.toString());
        assertEquals(0, segments.exit(), segments.err());
        assertEquals(1, segments.out().lines().filter(l -> l.contains("flushed")).count(), segments.out());
        assertTrue(segments.err().startsWith("[WARN] segments: " + manifest + " ends in "), segments.err());
        assertTrue(segments.err().contains("that are not a whole edit; they are ignored, as an open ignores them"),
                segments.err());
        Run json = tala("segments", "--db", db.toString(), "--json");
        assertTrue(json.out().startsWith("[{"), json.out());
        assertTrue(json.err().startsWith("[WARN] segments: "), json.err());

        Run intact = tala("segments", "--db", databaseElsewhere().toString());
        assertEquals("", intact.err(), "no warning for a whole MANIFEST");
    }

    private Path databaseElsewhere() throws IOException {
        Path db = work.resolve("intact");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        return db;
    }
}
