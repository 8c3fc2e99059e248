package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.TalaException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile or huge files must get a clear error (or be handled), never an OutOfMemoryError: an
 * OPTIONS file or a MANIFEST of a gigabyte was read whole onto the heap. Each case runs the
 * database in a child JVM with a small heap, so that an OOM shows up as a failure and does not
 * hurt the machine; the large files are sparse.
 */
class ResourceExhaustionTest {
    @TempDir
    Path dir;

    static final int DIM = 4;

    static Intent intent(IntentId id, long ts) {
        return Intent.builder().id(id).timestampNs(ts).command("c" + ts).embedding(new float[] {1, 2, 3, ts}).build();
    }

    record Run(int exit, String output, boolean timedOut) {
    }

    /** Runs {@link Child#main} in a child JVM with the project's flags and {@code heap}. */
    static Run child(String heap, long timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("@" + Path.of(System.getProperty("tala.repo", "..")).resolve("jvm.options"));
        cmd.add(heap);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(Child.class.getName());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("child", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly().waitFor();
            }
            return new Run(done ? p.exitValue() : -1, Files.readString(out), !done);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** What the child JVM runs: an open. Exit 0: opened (prints the intent count); 3: refused with a TalaException. */
    public static final class Child {
        public static void main(String[] a) {
            Path db = Path.of(a[1]);
            switch (a[0]) {
                case "open" -> {
                    Options.Builder b = Options.builder().dimension(DIM);
                    if (a.length > 2) {
                        b.memtableBytes(Long.parseLong(a[2]));
                    }
                    try (TalaDB t = TalaDB.open(db, b.build())) {
                        System.out.println("OPENED intents=" + t.stats().intents());
                    } catch (TalaException e) {
                        System.out.println("REFUSED " + e.getMessage());
                        System.exit(3);
                    }
                }
                default -> throw new IllegalArgumentException(a[0]);
            }
        }
    }

    private Path databaseWithOneFlushedIntent() {
        Path db = dir.resolve("db");
        try (TalaDB t = TalaDB.open(db, Options.builder().dimension(DIM).build())) {
            t.put(intent(IntentId.newV7(), 1));
            t.flush();
        }
        return db;
    }

    private static void makeSparse(Path file, long size) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(size);
        }
    }

    private static void assertNoVmError(Run r) {
        assertFalse(r.timedOut(), "the open did not finish in time:\n" + r.output());
        assertFalse(r.output().contains("OutOfMemoryError"), "the open ran out of memory:\n" + r.output());
        assertTrue(r.exit() == 0 || r.exit() == 3, "exit " + r.exit() + ":\n" + r.output());
    }

    /** OPTIONS is a few lines; one grown to 1 GiB (zeros) must be refused, not read whole into the heap. */
    @Test
    void aHugeSparseOptionsFileIsRefusedWithoutRunningOutOfMemory() throws Exception {
        Path db = databaseWithOneFlushedIntent();
        makeSparse(db.resolve("OPTIONS"), 1L << 30);
        Run r = child("-Xmx128m", 60, "open", db.toString());
        assertNoVmError(r);
        assertEquals(3, r.exit(), r.output());
        assertTrue(r.output().contains("OPTIONS"), r.output());
    }

    /** A MANIFEST with 1 GiB of zeros after its edits: a clear error or a repaired open, never an OOM. */
    @Test
    void aHugeSparseManifestDoesNotRunOutOfMemory() throws Exception {
        Path db = databaseWithOneFlushedIntent();
        Path manifest;
        try (Stream<Path> s = Files.list(db)) {
            manifest = s.filter(p -> p.getFileName().toString().startsWith("MANIFEST")).findFirst().orElseThrow();
        }
        makeSparse(manifest, 1L << 30);
        Run r = child("-Xmx128m", 60, "open", db.toString());
        assertNoVmError(r);
        if (r.exit() == 0) {
            assertTrue(r.output().contains("OPENED intents=1"), "the stored intent was lost:\n" + r.output());
        } else {
            assertTrue(r.output().contains("MANIFEST"), r.output());
        }
    }
}
