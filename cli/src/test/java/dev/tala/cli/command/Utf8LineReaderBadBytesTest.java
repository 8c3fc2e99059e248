package dev.tala.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Where the bad bytes of a line are, and which: the operator's only handle on a long line. */
class Utf8LineReaderBadBytesTest {
    private static byte[] bytes(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : (byte[]) p);
        }
        return out.toByteArray();
    }

    /**
     * A three-byte sequence cut after its second byte is one malformed input of two bytes, and
     * both are named; the reader then goes on with the next line, decoded on its own.
     */
    @Test
    void aTruncatedSequenceIsNamedWithAllItsBytesAndTheNextLineStillReads() throws IOException {
        byte[] input = bytes("first\n", "\u00e9a", new byte[] {(byte) 0xE2, (byte) 0x82}, "c\r\n", "\uD83D\uDE00 next\n");
        Utf8LineReader reader = new Utf8LineReader(new ByteArrayInputStream(input));
        assertEquals("first", reader.readLine());
        Utf8LineReader.NotUtf8Exception e = assertThrows(Utf8LineReader.NotUtf8Exception.class, reader::readLine);
        // é is bytes 1 and 2, a is 3: the bad bytes start at 4.
        assertEquals("not valid UTF-8 at byte 4 of the line (0xe2 0x82)", e.getMessage());
        assertEquals("\uD83D\uDE00 next", reader.readLine());
        assertNull(reader.readLine());
    }

    /** A line that ends inside a sequence: the bytes run to the end of the line, before its \r\n. */
    @Test
    void aSequenceCutByTheEndOfTheLineIsNamed() throws IOException {
        byte[] input = bytes("ab", new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, "\r\n");
        Utf8LineReader reader = new Utf8LineReader(new ByteArrayInputStream(input));
        Utf8LineReader.NotUtf8Exception e = assertThrows(Utf8LineReader.NotUtf8Exception.class, reader::readLine);
        assertEquals("not valid UTF-8 at byte 3 of the line (0xf0 0x9f 0x98)", e.getMessage());
    }
}
