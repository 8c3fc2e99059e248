package dev.tala.cli.json;

import dev.tala.core.error.TalaException;

/**
 * A line that is not a valid intent operation. {@link #field()} names the JSON field at fault
 * ({@code "embedding"}, {@code "edges[2].relation"}, ...), or is null when the line as a whole is
 * wrong (malformed JSON, not an object). The message reads {@code "field: reason"}; the caller
 * adds the {@code "FILE:LINE: "} prefix, which this layer cannot know.
 */
public final class LineFormatException extends TalaException {
    private final String field;
    private final String reason;

    public LineFormatException(String field, String reason) {
        super(field == null ? reason : field + ": " + reason);
        this.field = field;
        this.reason = reason;
    }

    /** The JSON path of the offending field, or null when the whole line is at fault. */
    public String field() {
        return field;
    }

    /** The message without the field prefix. */
    public String reason() {
        return reason;
    }
}
