package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.regex.Pattern;

/**
 * Columns of one line of input as the person reading the error counts them. A line here ends
 * only at a newline, and a carriage return alone is JSON whitespace inside it (a file with old
 * Mac line endings is one line), but Jackson counts it as a line break and starts its column
 * again after it: its (line, column) is turned back into a column of the whole line.
 */
final class JsonColumns {
    /** Where each of Jackson's lines starts in the input, from 0; Jackson's line N starts at {@code starts[N - 1]}. */
    private final int[] starts;

    private JsonColumns(int[] starts) {
        this.starts = starts;
    }

    /** For a line given as characters: columns count characters. */
    static JsonColumns of(String text) {
        return of(text.length(), text::charAt);
    }

    /** For a line given as UTF-8 bytes: columns count bytes, as Jackson's do there. */
    static JsonColumns of(byte[] utf8, int offset, int length) {
        return of(length, i -> utf8[offset + i]);
    }

    /** {@code unitAt} gives the line's character or byte at an index below {@code length}. */
    private static JsonColumns of(int length, IntUnaryOperator unitAt) {
        List<Integer> starts = new ArrayList<>(List.of(0));
        for (int i = 0; i < length; i++) {
            int c = unitAt.applyAsInt(i);
            if (c == '\r' && i + 1 < length && unitAt.applyAsInt(i + 1) == '\n') {
                i++; // Jackson takes \r\n as one break
            }
            if (c == '\r' || c == '\n') {
                starts.add(i + 1);
            }
        }
        return new JsonColumns(starts.stream().mapToInt(Integer::intValue).toArray());
    }

    /** "column N", N from 1 in the whole line. */
    String column(JsonLocation location) {
        return "column " + column(location.getLineNr(), location.getColumnNr());
    }

    private long column(int line, int column) {
        return line >= 1 && line <= starts.length ? (long) starts[line - 1] + column : column;
    }

    /**
     * Jackson's message without its own location ("[Source: ...; line: 1, column: N]"), which
     * would contradict the file line import puts first; where an unclosed object, array or
     * string began is kept as a column of the whole line.
     */
    String withoutParserLocation(String message) {
        String named = START_MARKER.matcher(message).replaceAll(m -> "(opened at column "
                + column(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) + ")");
        return SOURCE_LOCATION.matcher(named).replaceAll("");
    }

    private static final Pattern START_MARKER =
            Pattern.compile("\\(start marker at \\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]\\)");
    private static final Pattern SOURCE_LOCATION = Pattern.compile(" ?(at )?\\[Source: [^\\]]*\\]");
}
