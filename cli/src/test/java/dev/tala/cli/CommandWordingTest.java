package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** From an operator's audit of the CLI: what commands say, and options that were silently ignored. */
class CommandWordingTest {
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
