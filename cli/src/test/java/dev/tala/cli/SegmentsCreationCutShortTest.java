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
 * OPTIONS without a MANIFEST is a creation cut short when no segment exists (the opens finish
 * it, verify says so) and a lost MANIFEST beside segments; {@code segments} judges it the same
 * way instead of calling the directory no database.
 */
class SegmentsCreationCutShortTest {
    @TempDir
    Path work;

    @Test
    void aCreationCutShortListsNoSegments() throws IOException {
        Path db = createdWithoutManifest();

        Run text = tala("segments", "--db", db.toString());
        assertEquals(0, text.exit(), text.out() + text.err());
        assertTrue(text.out().contains("creation was cut short"), text.out());

        Run json = tala("segments", "--db", db.toString(), "--json");
        assertEquals(0, json.exit(), json.out() + json.err());
        assertEquals("[]", json.out().strip());
    }

    @Test
    void aManifestMissingBesideSegmentsIsRefused() throws IOException {
        Path db = createdWithoutManifest();
        Files.writeString(db.resolve("segments").resolve("00000000000000000007.tbf"), "x");

        Run run = tala("segments", "--db", db.toString());
        assertTrue(run.exit() != 0, run.out() + run.err());
        assertTrue(run.err().contains("MANIFEST is missing but segments exist"), run.err());
    }

    private Path createdWithoutManifest() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        Files.delete(db.resolve("MANIFEST"));
        return db;
    }
}
