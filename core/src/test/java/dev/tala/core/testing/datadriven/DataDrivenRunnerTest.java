package dev.tala.core.testing.datadriven;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/** The runner itself: the file syntax, the blank-line rule, where failures point, rewriting. */
class DataDrivenRunnerTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** A handler that echoes each case's input lines and reads no argument. */
    private static String echo(TestCase c) {
        return String.join("\n", c.inputLines());
    }

    @Test
    void aCaseIsACommandItsArgumentsItsInputAndItsOutput() throws IOException {
        Path file = write("parts", """
                put a "two words" ts=10 cmd="say \\"hi\\" \\\\ bye" vec=(1, 0.5 ,-2) none=() tag=x=y
                first input
                # not a comment: input
                ----
                out 1
                out 2
                """);
        List<TestCase> seen = new ArrayList<>();
        DataDriven.check(file, c -> {
            seen.add(c);
            assertEquals("put", c.command());
            assertEquals(List.of("a", "two words"), c.words());
            assertEquals(10, c.getLong("ts"));
            assertEquals("say \"hi\" \\ bye", c.get("cmd"));
            assertArrayEquals(new float[] {1, 0.5f, -2}, c.floats("vec"));
            assertEquals(List.of(), c.list("none"));
            assertEquals("x=y", c.get("tag"));
            assertFalse(c.has("limit"));
            assertEquals(7, c.getInt("limit", 7));
            assertEquals(List.of("first input", "# not a comment: input"), c.inputLines());
            assertEquals("out 1\nout 2\n", c.expected());
            assertEquals(1, c.line());
            return "out 1\nout 2";
        });
        assertEquals(1, seen.size());
    }

    @Test
    void commentsAndBlankLinesBetweenCasesAreSkipped() throws IOException {
        Path file = write("comments", """
                # a story in three cases

                # the first
                one
                x
                ----
                x


                two
                ----
                # an output line, not a comment

                # the last case has no output and no blank line after it
                three
                ----""");
        List<String> commands = new ArrayList<>();
        DataDriven.check(file, c -> {
            commands.add(c.command() + "@" + c.line());
            return c.command().equals("two") ? "# an output line, not a comment" : echo(c);
        });
        assertEquals(List.of("one@4", "two@10", "three@15"), commands);
    }

    @Test
    void aBlankLineEndsAnOutputUnlessItIsBetweenDoubledSeparators() throws IOException {
        Path file = write("blank", """
                doubled
                ----
                ----
                before

                after
                ----
                ----

                single
                ----
                only this

                empty
                ----

                """);
        Map<String, String> outputs = Map.of("doubled", "before\n\nafter\n", "single", "only this\n", "empty", "");
        List<String> expected = new ArrayList<>();
        DataDriven.check(file, c -> {
            expected.add(c.expected());
            return outputs.get(c.command());
        });
        assertEquals(List.of("before\n\nafter\n", "only this\n", ""), expected);
    }

    @Test
    void aMismatchNamesTheFileAndTheLineOfItsCaseAndStopsTheFile() throws IOException {
        Path file = write("story", """
                # line 1
                first
                ----
                1

                second \\
                  continued
                ----
                2

                third
                ----
                3
                """);
        List<String> ran = new ArrayList<>();
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> DataDriven.check(file, c -> {
            ran.add(c.command());
            if (c.command().equals("second")) {
                assertEquals(List.of("continued"), c.words());
            }
            return c.command().equals("second") ? "two" : c.command().equals("first") ? "1" : "3";
        }));
        String message = e.getMessage();
        assertTrue(message.startsWith(DataDriven.displayName(file) + ":6: second continued"), message);
        assertTrue(message.contains("expected:\n2\nactual:\ntwo\n"), message);
        assertEquals("2\n", e.getExpected().getValue());
        assertEquals("two\n", e.getActual().getValue());
        assertEquals(List.of("first", "second"), ran, "the file stops at its first failing case");
    }

    @Test
    void aBadlyWrittenFileIsRefusedWithItsLine() throws IOException {
        Map<String, String> files = Map.of(
                "no separator", "# x\ncmd\ninput\n\nnext\n----\n",
                "end of file", "cmd\ninput",
                "unclosed doubled", "\ncmd\n----\n----\nout\n----\n",
                "text after closing pair", "cmd\n----\n----\nout\n----\n----\nnext\n",
                "unclosed quote", "\n\ncmd x=\"abc\n----\n",
                "unclosed list", "cmd x=(1, 2\n----\n",
                "repeated key", "cmd x=1 x=2\n----\n",
                "continued at the end", "cmd \\");
        Map<String, String> lines = Map.of(
                "no separator", ":2: no ---- line before the blank line 4",
                "end of file", ":1: no ---- line before the end",
                "unclosed doubled", ":2: the output opened by a doubled ----",
                "text after closing pair", ":7: a blank line must follow",
                "unclosed quote", ":3: a quoted string opened at column 7",
                "unclosed list", ":1: a list opened at column 7",
                "repeated key", ":1: the argument x= is given twice",
                "continued at the end", ":1: the file ends after a continued command line");
        for (var entry : files.entrySet()) {
            Path file = write("bad", entry.getValue());
            BadTestFileException e = assertThrows(BadTestFileException.class,
                    () -> DataDriven.check(file, c -> ""), entry.getKey());
            assertTrue(e.getMessage().startsWith(DataDriven.displayName(file) + lines.get(entry.getKey())),
                    entry.getKey() + ": " + e.getMessage());
        }
    }

    @Test
    void anArgumentTheHandlerDoesNotReadFailsItsCase() throws IOException {
        Path file = write("unread", "scan from=1 lmit=5\n----\n\n");
        BadTestFileException e = assertThrows(BadTestFileException.class, () -> DataDriven.check(file, c -> {
            c.getLong("from");
            c.getLong("limit", 10);
            return "";
        }));
        assertTrue(e.getMessage().endsWith("unread:1: scan does not take lmit="), e.getMessage());
        Path words = write("words", "flush now\n----\n\n");
        e = assertThrows(BadTestFileException.class, () -> DataDriven.check(words, c -> ""));
        assertTrue(e.getMessage().endsWith("words:1: flush does not take now"), e.getMessage());
    }

    @Test
    void inputLinesReadAsCommandsAreLocatedAtTheirOwnLines() throws IOException {
        Path file = write("batch", """
                # a batch of writes
                batch \\
                  atomic
                put a ts=1
                delete b lmit=2
                ----
                """);
        List<String> seen = new ArrayList<>();
        BadTestFileException e = assertThrows(BadTestFileException.class, () -> DataDriven.check(file, c -> {
            c.words();
            for (TestCase line : c.inputAsCommands()) {
                seen.add(line.location().substring(line.location().lastIndexOf('/') + 1) + " " + line.command()
                        + " " + line.word());
                line.getLong("ts", 0);
            }
            return "";
        }));
        assertEquals(List.of("batch:4 put a", "batch:5 delete b"), seen);
        assertTrue(e.getMessage().endsWith("batch:5: delete does not take lmit="), e.getMessage());
    }

    @Test
    void aMalformedArgumentNamesItsCase() throws IOException {
        Path file = write("malformed", "\nscan limit=ten\n----\n");
        BadTestFileException e = assertThrows(BadTestFileException.class,
                () -> DataDriven.check(file, c -> "" + c.getLong("limit")));
        assertTrue(e.getMessage().endsWith("malformed:2: limit=ten is not a whole number"), e.getMessage());
    }

    @Test
    void aHandlerThatThrowsFailsNamingItsCase() throws IOException {
        Path file = write("throws", "ok\n----\n\nboom\n----\n");
        AssertionError e = assertThrows(AssertionError.class, () -> DataDriven.check(file, c -> {
            if (c.command().equals("boom")) {
                throw new IllegalStateException("handler bug");
            }
            return "";
        }));
        assertTrue(e.getMessage().startsWith(DataDriven.displayName(file) + ":4: boom threw"), e.getMessage());
        assertTrue(e.getCause() instanceof IllegalStateException);
    }

    @Test
    void rewritingReplacesOnlyTheOutputsAndChoosesTheDoubledFormWhenNeeded() throws IOException {
        Path file = write("rewrite", """
                # kept as it is
                echo
                a
                b
                ----
                stale

                # an output gaining a blank line becomes doubled
                gap
                ----
                x

                # a doubled output losing its blank line becomes single
                tight
                ----
                ----
                p

                q
                ----
                ----

                silent
                ----
                was not empty
                """);
        Map<String, String> outputs = Map.of("echo", "a\nb", "gap", "x\n\ny\n", "tight", "p q", "silent", "");
        assertTrue(DataDriven.rewrite(file, c -> c.command().equals("echo") ? echo(c) : outputs.get(c.command())));
        assertEquals("""
                # kept as it is
                echo
                a
                b
                ----
                a
                b

                # an output gaining a blank line becomes doubled
                gap
                ----
                ----
                x

                y
                ----
                ----

                # a doubled output losing its blank line becomes single
                tight
                ----
                p q

                silent
                ----
                """, Files.readString(file));
        DataDriven.Handler same = c -> c.command().equals("echo") ? echo(c) : outputs.get(c.command());
        DataDriven.check(file, same);
        assertFalse(DataDriven.rewrite(file, same), "a file that passes is left as it is");
    }

    @Test
    void rewritingStillFailsABadlyWrittenCaseAndLeavesTheFile() throws IOException {
        String text = "fine\n----\nold\n\ntypo lmit=1\n----\n";
        Path file = write("typo", text);
        assertThrows(BadTestFileException.class, () -> DataDriven.rewrite(file, c -> "new"));
        assertEquals(text, Files.readString(file));
    }

    @Test
    void anOutputWithoutAFinalNewlineGetsOne() throws IOException {
        Path file = write("newline", "say\n----\nhello\n");
        DataDriven.check(file, c -> "hello");
    }
}
