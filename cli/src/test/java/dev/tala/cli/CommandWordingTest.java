package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.cli.InProcess.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** From an operator's audit of the CLI: what commands say, and options that were silently ignored. */
class CommandWordingTest {
    @TempDir
    Path work;

    /** It said "creating a database of 1 intents" and "ingested 1 intents". */
    @Test
    void demoCountsOneIntentInTheSingular() {
        Run demo = tala("demo", "--db", work.resolve("one").toString(), "--intents", "1");
        assertEquals(0, demo.exit(), demo.err());
        assertTrue(demo.out().contains("creating a database of 1 intent in "), demo.out());
        assertTrue(demo.out().contains("ingested 1 intent in "), demo.out());
    }

    /** --quick beside --intents or --write-amp was ignored without a word. */
    @Test
    void benchRefusesQuickBesideAnotherSize() {
        Run intents = tala("bench", "--quick", "--intents", "200", "--db", work.resolve("b1").toString());
        assertEquals(1, intents.exit(), intents.out());
        assertEquals("tala bench: --quick and --intents each choose the run's size; give one", intents.err().strip());
        Run writeAmp = tala("bench", "--quick", "--write-amp", "200", "--db", work.resolve("b2").toString());
        assertEquals(1, writeAmp.exit(), writeAmp.out());
        assertEquals("tala bench: --quick and --write-amp each choose the run's size; give one", writeAmp.err().strip());
    }
}
