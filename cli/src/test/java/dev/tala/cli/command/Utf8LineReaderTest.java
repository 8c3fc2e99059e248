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

    /** Splits text into lines as BufferedReader does for \n and \r\n endings. */
    @Property
    void readsTheLinesBufferedReaderReads(@ForAll @StringLength(max = 300) String body,
                                          @ForAll @IntRange(min = 1, max = 70_000) int chunk) throws IOException {
        String text = body.replace('\r', 'r'); // a lone \r ends a line for BufferedReader only
        if (text.chars().anyMatch(c -> Character.isSurrogate((char) c))) {
            return; // unpaired surrogates do not survive encoding; the decoder's own test covers UTF-8
        }
        List<String> want = new ArrayList<>(new BufferedReader(new StringReader(text)).lines().toList());
        Utf8LineReader reader = new Utf8LineReader(trickle(text.getBytes(StandardCharsets.UTF_8), chunk));
        List<String> got = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            got.add(line);
        }
        assertEquals(want, got);
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

    @Test
    void aLineThatIsNotUtf8FailsWhenItIsReadNotBefore() throws IOException {
        byte[] bytes = {'o', 'k', '\n', 'b', (byte) 0xFF, 'd', '\n', 'n', 'e', 'x', 't', '\n'};
        Utf8LineReader reader = new Utf8LineReader(new ByteArrayInputStream(bytes));
        assertEquals("ok", reader.readLine());
        assertThrows(CharacterCodingException.class, reader::readLine);
    }
}
