package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.cli.InProcess.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A carriage return alone is JSON whitespace, and import ends lines only at a newline, so a
 * file with old Mac line endings is one line; Jackson counts the carriage return as a line
 * break, though, and its column starts again after it. Errors named "column 1" of the line
 * for an object that starts far into it.
 */
class ImportColumnAfterCarriageReturnTest {
    private static final String PUT = "{\"id\":\"0198fc00-0000-7000-8000-000000000001\",\"timestamp\":1,"
            + "\"command\":\"a\",\"embedding\":[1,2,3,4]}";

    @TempDir
    Path work;

    private Run importing(String content) throws IOException {
        Path db = work.resolve("db");
        if (!Files.exists(db)) {
            assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        }
        Path file = work.resolve("in.jsonl");
        Files.writeString(file, content);
        return tala("import", "--db", db.toString(), file.toString());
    }

    @Test
    void aSecondObjectAfterACarriageReturnIsNamedAtItsColumnInTheLine() throws IOException {
        Run r = importing(PUT + "\r" + PUT + "\n");
        assertEquals(1, r.exit());
        int column = PUT.length() + 2; // 1-based, after the carriage return
        assertEquals("tala import: " + work.resolve("in.jsonl") + ":1: found an object after the JSON object, at column "
                + column + " (one object per line)", r.err().strip());
    }

    /** The same error as for the line with spaces in place of its carriage returns, which are as long. */
    @Test
    void malformedJsonAfterACarriageReturnIsNamedAtItsColumnInTheLine() throws IOException {
        String line = "{\"id\":\"0198fc00-0000-7000-8000-000000000001\",\r\"timestamp\":1,\r\"command\":x}";
        Run spaced = importing(line.replace('\r', ' ') + "\n");
        assertEquals(1, spaced.exit());
        Run r = importing(line + "\n");
        assertEquals(1, r.exit());
        assertEquals(spaced.err(), r.err());
    }

    @Test
    void anArrayLeftOpenAfterACarriageReturnIsNamedWhereItOpensInTheLine() throws IOException {
        String line = "{\"id\":\"0198fc00-0000-7000-8000-000000000001\",\r\"embedding\":[1,2";
        Run r = importing(line + "\n");
        assertEquals(1, r.exit());
        String expected = "(opened at column " + (line.indexOf('[') + 1) + ")";
        assertEquals(true, r.err().contains(expected), r.err());
    }
}
