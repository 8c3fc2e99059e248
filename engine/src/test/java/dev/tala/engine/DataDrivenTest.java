package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.tala.core.testing.datadriven.DataDriven;
import dev.tala.engine.datadriven.DatabaseDriver;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stories in {@code src/test/resources/testdata}, each a file of commands and the output the
 * database must give, run against a real database (docs/TESTING.md, "Data-driven tests", has the
 * commands and the file syntax). One dynamic test per file, in a directory of its own.
 *
 * <p>{@code mvn -B -o -pl engine -am test -Dtest=DataDrivenTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dtala.rewrite=true} writes the actual outputs into the files instead of comparing them.
 */
class DataDrivenTest {
    static final Path TESTDATA = DataDriven.sourceTestData("engine", "testdata");

    @TempDir
    Path work;

    @TestFactory
    Stream<DynamicTest> stories() {
        List<Path> files = DataDriven.files(TESTDATA);
        assertFalse(files.isEmpty(), "no test files in " + TESTDATA.toAbsolutePath());
        // No test source URI on the dynamic tests: surefire's -Dtest=DataDrivenTest filter
        // matches tests by their class and method, and silently drops one whose source is a file.
        return files.stream()
                .map(file -> dynamicTest(file.getFileName().toString(), () -> run(file)));
    }

    private void run(Path file) {
        try (DatabaseDriver driver = new DatabaseDriver(work.resolve(file.getFileName().toString()))) {
            DataDriven.run(file, driver);
        }
    }
}
