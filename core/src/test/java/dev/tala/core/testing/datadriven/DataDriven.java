package dev.tala.core.testing.datadriven;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.opentest4j.AssertionFailedError;

/**
 * Runs the cases of a test file through a handler and compares each output with the file's, as
 * Pebble's {@code datadriven} package does; the file syntax is in {@code package-info.java}.
 *
 * <p>Cases run in order and share whatever state the handler keeps, so a file is a story: the
 * first case whose output differs fails the run, naming the file and line, with the expected
 * and the actual output (later cases would only fail in its wake). With
 * {@code -Dtala.rewrite=true} nothing fails on a difference: every case runs and the file is
 * written back with the actual outputs, so a new case is written as a command and a
 * {@code ----} line, and its output read, checked by eye, and committed.
 */
public final class DataDriven {
    /** The system property that turns on rewriting. */
    public static final String REWRITE_PROPERTY = "tala.rewrite";

    /** What a test file's commands do. */
    @FunctionalInterface
    public interface Handler {
        /** Runs {@code c} and returns its output; a final newline is added when missing. */
        String handle(TestCase c) throws Exception;
    }

    private DataDriven() {
    }

    /** Whether this run rewrites files instead of checking them ({@value #REWRITE_PROPERTY}). */
    public static boolean rewriting() {
        return Boolean.getBoolean(REWRITE_PROPERTY);
    }

    /** {@link #check} or, when {@link #rewriting}, {@link #rewrite}. */
    public static void run(Path file, Handler handler) {
        if (rewriting()) {
            rewrite(file, handler);
        } else {
            check(file, handler);
        }
    }

    /** Runs every case; fails at the first whose output is not the expected one. */
    public static void check(Path file, Handler handler) {
        for (TestCase c : read(file).cases()) {
            String actual = runCase(c, handler);
            if (!actual.equals(c.expected())) {
                throw new AssertionFailedError(c.location() + ": " + c.text() + "\nexpected:\n" + c.expected()
                        + "actual:\n" + actual + "(to accept the actual outputs, rerun with -D" + REWRITE_PROPERTY
                        + "=true and review the file's diff)", c.expected(), actual);
            }
        }
    }

    /**
     * Runs every case and writes the file back with the actual outputs (only if one changed).
     * A case whose handler throws, or a file that does not parse, still fails: there is no
     * output to write.
     *
     * @return whether the file changed
     */
    public static boolean rewrite(Path file, Handler handler) {
        TestFile parsed = read(file);
        List<String> outputs = new ArrayList<>();
        for (TestCase c : parsed.cases()) {
            outputs.add(runCase(c, handler));
        }
        try {
            String before = Files.readString(file);
            String after = parsed.render(outputs);
            if (after.equals(before)) {
                return false;
            }
            Files.writeString(file, after);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite " + file, e);
        }
    }

    /** The regular files directly in {@code dir}, by name (hidden ones left out). */
    public static List<Path> files(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the test files in " + dir, e);
        }
    }

    /**
     * The source directory {@code src/test/resources/<dir>} of {@code module}: test files are read
     * where they are written, not from their copy in {@code target/}, so that a rewrite changes
     * the files under version control. Found from the reactor root ({@code tala.repo}, which the
     * build sets) or, failing that, from the working directory (the module's, under Maven).
     */
    public static Path sourceTestData(String module, String dir) {
        Path inModule = Path.of("src", "test", "resources", dir);
        String repo = System.getProperty("tala.repo");
        if (repo != null && Files.isDirectory(Path.of(repo, module).resolve(inModule))) {
            return Path.of(repo, module).resolve(inModule);
        }
        if (Files.isDirectory(inModule)) {
            return inModule;
        }
        throw new IllegalStateException("no test files at " + module + "/" + inModule + " (tala.repo is " + repo
                + ", the working directory " + Path.of("").toAbsolutePath() + ")");
    }

    /** The name a location prints: the path from the working directory when the file is below it. */
    static String displayName(Path file) {
        Path here = Path.of("").toAbsolutePath();
        Path absolute = file.toAbsolutePath().normalize();
        return absolute.startsWith(here) ? here.relativize(absolute).toString() : file.toString();
    }

    private static TestFile read(Path file) {
        try {
            return TestFileParser.parse(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static String runCase(TestCase c, Handler handler) {
        String output;
        try {
            output = handler.handle(c);
        } catch (BadTestFileException e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(c.location() + ": " + c.text() + " threw " + e, e);
        }
        c.requireEveryArgumentRead();
        if (output == null) {
            throw new AssertionError(c.location() + ": the handler returned null for " + c.text());
        }
        return output.isEmpty() || output.endsWith("\n") ? output : output + "\n";
    }
}
