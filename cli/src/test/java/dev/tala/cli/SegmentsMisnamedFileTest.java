package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.cli.InProcess.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two segment files swapped by hand (a restore under the wrong names): every open and verify
 * refuse them, since the MANIFEST's metadata describes other rows. segments listed both as
 * sound, exit 0, with the MANIFEST's key range beside the other file's flags and counts.
 */
class SegmentsMisnamedFileTest {
    @TempDir
    Path work;

    @Test
    void segmentsCallsAFileWhoseHeaderNamesAnotherSegmentUnreadable() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        for (int batch = 0; batch < 2; batch++) {
            Path file = work.resolve("batch" + batch + ".jsonl");
            Files.writeString(file, String.format("{\"id\":\"0198fc00-0000-7000-8000-%012x\",\"timestamp\":%d,"
                    + "\"command\":\"c\",\"embedding\":[1,2,3,4]}%n", batch, 1000 + batch));
            assertEquals(0, tala("import", "--db", db.toString(), file.toString()).exit());
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(db.resolve("segments"))) {
            segments = files.sorted().toList();
        }
        assertEquals(2, segments.size());
        Path parked = work.resolve("parked");
        Files.move(segments.get(0), parked);
        Files.move(segments.get(1), segments.get(0));
        Files.move(parked, segments.get(1), StandardCopyOption.ATOMIC_MOVE);

        assertEquals(1, tala("verify", "--db", db.toString()).exit(), "verify refuses the swap");
        Run table = tala("segments", "--db", db.toString());
        assertEquals(1, table.exit(), table.out() + table.err());
        assertTrue(table.out().contains("UNREADABLE"), table.out());
        assertTrue(table.out().contains(segments.get(0) + " at offset 8: header names segment"), table.out());
        Run json = tala("segments", "--db", db.toString(), "--json");
        assertEquals(1, json.exit(), json.out() + json.err());
        assertTrue(json.out().contains("\"error\":\"" + segments.get(1) + " at offset 8: header names segment"), json.out());
    }

    /**
     * A segment file restored from another database under the same number (ids run alike, so
     * its header names the right segment): every open and verify refuse it as not the file the
     * MANIFEST lists, and segments listed it as sound, with the MANIFEST's size and ranges.
     */
    @Test
    void segmentsCallsAFileThatIsNotTheOneTheManifestListsUnreadable() throws IOException {
        Path mine = work.resolve("mine");
        Path other = work.resolve("other");
        for (Path db : List.of(mine, other)) {
            assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < (db == mine ? 3 : 7); i++) {
                lines.append(String.format("{\"id\":\"0198fc00-0000-7000-8000-%012x\",\"timestamp\":%d,"
                        + "\"command\":\"c\",\"embedding\":[1,2,3,4]}%n", i, 1000 + i));
            }
            Path file = work.resolve(db.getFileName() + ".jsonl");
            Files.writeString(file, lines);
            assertEquals(0, tala("import", "--db", db.toString(), file.toString()).exit());
        }
        Path segment;
        try (Stream<Path> files = Files.list(mine.resolve("segments"))) {
            segment = files.toList().getFirst();
        }
        Files.copy(other.resolve("segments").resolve(segment.getFileName()), segment, StandardCopyOption.REPLACE_EXISTING);

        assertEquals(1, tala("stats", "--db", mine.toString()).exit(), "every open refuses it");
        Run table = tala("segments", "--db", mine.toString());
        assertEquals(1, table.exit(), table.out() + table.err());
        assertTrue(table.out().contains("UNREADABLE") && table.out().contains("not the segment the MANIFEST lists"),
                table.out());
    }
}
