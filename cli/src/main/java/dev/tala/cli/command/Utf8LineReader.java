package dev.tala.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads lines of UTF-8 text, ending at {@code \n} or {@code \r\n}, decoding each line on its
 * own: a line whose bytes are not UTF-8 throws {@link CharacterCodingException} when that line
 * is read, after every line before it was returned. (A {@code BufferedReader} over a strict
 * decoder fails as soon as its read-ahead meets the bad bytes, lines earlier; over the default
 * decoder it replaces them with U+FFFD, so a different command would be stored.)
 */
final class Utf8LineReader {
    private final InputStream in;
    private final int maxLineBytes;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private byte[] buf = new byte[1 << 16];
    private int start;
    private int end;
    private boolean eof;

    Utf8LineReader(InputStream in) {
        this(in, Integer.MAX_VALUE - 16);
    }

    /** Lines longer than {@code maxLineBytes} (terminator excluded) throw {@link LineTooLongException}. */
    Utf8LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** A line longer than the reader's limit; the reader cannot go on past it. */
    static final class LineTooLongException extends IOException {
        LineTooLongException(int limit) {
            super("the line is longer than " + limit + " bytes");
        }
    }

    /** The next line without its terminator, or null at the end of the input. */
    String readLine() throws IOException {
        int scanned = start;
        while (true) {
            for (int i = scanned; i < end; i++) {
                if (buf[i] == '\n') {
                    int from = start;
                    start = i + 1;
                    return decode(from, i);
                }
            }
            scanned = end;
            if (eof) {
                if (start == end) {
                    return null;
                }
                int from = start;
                start = end;
                return decode(from, end);
            }
            if (start > 0) {
                int kept = end - start;
                System.arraycopy(buf, start, buf, 0, kept);
                scanned -= start;
                end = kept;
                start = 0;
            }
            if (end - start > maxLineBytes) {
                throw new LineTooLongException(maxLineBytes);
            }
            if (end == buf.length) {
                buf = Arrays.copyOf(buf, (int) Math.min((long) buf.length * 2, (long) maxLineBytes + 2));
            }
            int n = in.read(buf, end, buf.length - end);
            if (n < 0) {
                eof = true;
            } else {
                end += n;
            }
        }
    }

    private String decode(int from, int to) throws CharacterCodingException {
        if (to > from && buf[to - 1] == '\r') {
            to--;
        }
        ByteBuffer in = ByteBuffer.wrap(buf, from, to - from);
        // UTF-8 never decodes to more chars than it has bytes.
        CharBuffer out = CharBuffer.allocate(to - from);
        decoder.reset();
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new NotUtf8Exception(in.position() - from + 1, Arrays.copyOfRange(buf, in.position(),
                    in.position() + result.length()));
        }
        return out.flip().toString();
    }

    /** Bytes of a line that are not UTF-8: where in the line (from 1), and which. */
    static final class NotUtf8Exception extends CharacterCodingException {
        private final String message;

        NotUtf8Exception(long byteInLine, byte[] bytes) {
            StringBuilder hex = new StringBuilder();
            for (byte b : bytes) {
                hex.append(hex.isEmpty() ? "0x" : " 0x").append(String.format("%02x", b & 0xFF));
            }
            this.message = "not valid UTF-8 at byte " + byteInLine + " of the line (" + hex + ")";
        }

        @Override
        public String getMessage() {
            return message;
        }
    }
}
