package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.cli.InProcess.Run;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an operator's audit of the CLI: what verify, segments and recover say of a database
 * damaged in ways an operator meets, and what recovery logs.
 */
class DamagedDatabaseReportsTest {
    @TempDir
    Path work;

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
        // A few stray bytes after the last whole edit, as a crash in the middle of one leaves.
        Path other = work.resolve("intact").resolve("MANIFEST");
        Files.write(other, new byte[] {1, 2, 3, 4, 5}, StandardOpenOption.APPEND);
        Run stray = tala("segments", "--db", work.resolve("intact").toString());
        assertTrue(stray.err().startsWith("[WARN] segments: " + other + " ends in 5 bytes from offset "), stray.err());
    }

    private Path databaseElsewhere() throws IOException {
        Path db = work.resolve("intact");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        return db;
    }

    /** A database whose newest WAL file ends in 10 bytes of garbage, as a torn write leaves it. */
    private Path databaseWithATornWalTail() throws IOException {
        Path db = work.resolve("torn");
        try (TalaDB open = TalaDB.open(db, Options.builder().dimension(4).durability(Durability.none()).build())) {
            open.put(Intent.builder().id(IntentId.of(1, 1)).embedding(new float[] {1, 0, 0, 0}).build());
        }
        Path wal;
        try (Stream<Path> files = Files.list(db.resolve("wal"))) {
            wal = files.filter(p -> p.toString().endsWith(".wal")).sorted().toList().getLast();
        }
        Files.write(wal, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, StandardOpenOption.APPEND);
        return db;
    }

    private static long mentions(String text, String what) {
        return text.lines().filter(l -> l.contains(what)).count();
    }

    /**
     * recover printed that nothing needed repair because "the last shutdown was clean" after a
     * kill (which leaves whole records to replay), and every repair was logged twice: on its
     * own line, then again in the summary.
     */
    @Test
    void aRepairIsLoggedOnceAndACleanRecoveryClaimsNoCleanShutdown() throws IOException {
        Run recover = tala("recover", "--db", databaseWithATornWalTail().toString());
        assertEquals(0, recover.exit(), recover.err());
        assertEquals(1, mentions(recover.out(), "truncated wal tail"), recover.out());
        assertEquals(1, mentions(recover.err(), "truncated wal tail"), recover.err());
        Run again = tala("recover", "--db", work.resolve("torn").toString());
        assertTrue(again.out().contains("nothing to repair: no torn or damaged WAL record, torn MANIFEST edit or"
                + " partial segment; 'tala verify' checks every segment's checksums"), again.out());
        assertFalse(again.out().contains("shutdown"), again.out());
    }

    /** Housekeeping (a leftover temporary file deleted) is no repair: recover still has nothing to repair. */
    @Test
    void recoverCallsHousekeepingNoRepair() throws IOException {
        Path db = databaseElsewhere();
        Files.write(db.resolve("MANIFEST.tmp"), new byte[] {9, 9, 9});
        Run recover = tala("recover", "--db", db.toString());
        assertEquals(0, recover.exit(), recover.err());
        assertTrue(recover.out().contains("nothing to repair"), recover.out());
        assertEquals(0, mentions(recover.out(), "temporary"), recover.out());
    }

    /** An open that fails after cutting a torn WAL tail still says that it cut it. */
    @Test
    void anOpenThatFailsAfterARepairLogsTheRepair() throws IOException {
        Path db = databaseWithATornWalTail();
        // Housekeeping is not a repair: deleting this is not logged as one.
        Files.write(db.resolve("MANIFEST.tmp"), new byte[] {9, 9, 9});
        Set<Path> before;
        try (Stream<Path> files = Files.list(db.resolve("wal"))) {
            before = files.collect(Collectors.toSet());
        }
        // The repair forces the file it cut; the open then fails to start its own WAL file.
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        fault.failForces(p -> p.toString().endsWith(".wal") && !before.contains(p));
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertThrows(RuntimeException.class, () -> TalaDB.open(db, Options.builder().fileLayer(fault).build()).close());
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertEquals(1, mentions(log, "truncated wal tail"), log);
        assertTrue(log.contains("(before the open failed)"), log);
        assertEquals(0, mentions(log, "temporary"), log);
    }
}
