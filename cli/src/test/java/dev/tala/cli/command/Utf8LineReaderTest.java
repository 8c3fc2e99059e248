package dev.tala.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class Utf8LineReaderTest {
    /** An input stream that hands out at most {@code chunk} bytes per read, as a pipe may. */
    private static InputStream trickle(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }

    /**
     * The rule: a line ends at \n; one \r before it (or before the end of the input) is part of
     * the ending; a lone \r inside a line is text; a final \n does not start another line.
     */
    private static List<String> linesByTheRule(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        if (lines.getLast().isEmpty()) {
            lines.removeLast();
        }
        lines.replaceAll(l -> l.endsWith("\r") ? l.substring(0, l.length() - 1) : l);
        return lines;
    }

    @Property
    void readsLinesByTheRule(@ForAll @StringLength(max = 300) @Chars({'\r', '\n', 'a', '\u00e9', '\u4e2d'})
                             @CharRange(from = ' ', to = '\uD7FF') String text,
                             @ForAll @IntRange(min = 1, max = 70_000) int chunk) throws IOException {
        Utf8LineReader reader = new Utf8LineReader(trickle(text.getBytes(StandardCharsets.UTF_8), chunk));
        List<String> got = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            got.add(line);
        }
        assertEquals(linesByTheRule(text), got);
    }

    /**
     * Where a lone \r is absent, the reader gives the lines BufferedReader gives: any text, read
     * in pieces of any size. Unpaired surrogates, which UTF-8 cannot carry, become '?' (the
     * decoder's own test covers bytes that are not UTF-8).
     */
    @Property
    void agreesWithBufferedReaderWithoutALoneCarriageReturn(@ForAll @StringLength(max = 300) String body,
                                                            @ForAll @IntRange(min = 1, max = 512) int chunk)
            throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < body.length()
                    && Character.isLowSurrogate(body.charAt(i + 1));
            if (paired) {
                text.append(c).append(body.charAt(++i));
            } else {
                text.append(c == '\r' ? 'r' : Character.isSurrogate(c) ? '?' : c);
            }
        }
        Utf8LineReader reader = new Utf8LineReader(trickle(text.toString().getBytes(StandardCharsets.UTF_8), chunk));
        List<String> got = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            got.add(line);
        }
        assertEquals(new BufferedReader(new StringReader(text.toString())).lines().toList(), got);
    }

    @Test
    void longLinesCrlfAndAMissingLastNewline() throws IOException {
        String longLine = "x".repeat(200_000);
        byte[] bytes = ("a\r\n" + longLine + "\n\u00e9\u4e2d\uD83D\uDE00\r\nlast").getBytes(StandardCharsets.UTF_8);
        Utf8LineReader reader = new Utf8LineReader(trickle(bytes, 1000));
        assertEquals("a", reader.readLine());
        assertEquals(longLine, reader.readLine());
        assertEquals("\u00e9\u4e2d\uD83D\uDE00", reader.readLine());
        assertEquals("last", reader.readLine());
        assertNull(reader.readLine());
    }

    /** A line past the limit fails when it is reached, after the lines before it, without being held whole. */
    @Test
    void aLineLongerThanTheLimitFailsWhenItIsRead() throws IOException {
        byte[] bytes = ("ok\n" + "y".repeat(5_000) + "\n" + "x".repeat(300_000) + "\nnext\n").getBytes(StandardCharsets.UTF_8);
        Utf8LineReader reader = new Utf8LineReader(trickle(bytes, 4096), 100_000);
        assertEquals("ok", reader.readLine());
        assertEquals("y".repeat(5_000), reader.readLine());
        Utf8LineReader.LineTooLongException e = assertThrows(Utf8LineReader.LineTooLongException.class, reader::readLine);
        assertEquals("the line is longer than 100000 bytes", e.getMessage());
        Utf8LineReader exact = new Utf8LineReader(new ByteArrayInputStream(("z".repeat(1000) + "\r\n").getBytes(StandardCharsets.UTF_8)), 1001);
        assertEquals("z".repeat(1000), exact.readLine());
    }

    @Test
    void aLineThatIsNotUtf8FailsWhenItIsReadNotBefore() throws IOException {
        byte[] bytes = {'o', 'k', '\n', 'b', (byte) 0xFF, 'd', '\n', 'n', 'e', 'x', 't', '\n'};
        Utf8LineReader reader = new Utf8LineReader(new ByteArrayInputStream(bytes));
        assertEquals("ok", reader.readLine());
        assertThrows(CharacterCodingException.class, reader::readLine);
    }
}
