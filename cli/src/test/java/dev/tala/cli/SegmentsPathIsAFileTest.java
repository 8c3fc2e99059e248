package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.cli.InProcess.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator audit replaced wal/ with a file; segments/ is the other directory verify checks,
 * and nothing else tells a file there from an empty directory when no segment is listed.
 */
class SegmentsPathIsAFileTest {
    @TempDir
    Path work;

    @Test
    void verifyListsASegmentsPathThatIsAFile() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        Path segments = db.resolve("segments");
        try (var files = Files.list(segments)) {
            assertEquals(0, files.count(), "a new database has no segment to hide");
        }
        Files.delete(segments);
        Files.writeString(segments, "x");

        Run verify = tala("verify", "--db", db.toString());
        assertEquals(1, verify.exit(), verify.out() + verify.err());
        assertTrue(verify.out().contains(segments.toString()) && verify.out().contains("not a directory"), verify.out());
    }
}
