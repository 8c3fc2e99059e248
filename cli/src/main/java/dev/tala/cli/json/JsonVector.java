package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A vector given on the command line as JSON text ({@code --vector '[0.1, 0.2]'}), read by the
 * same rules as an import line's embedding: each value correctly rounded to a 32-bit float, a
 * value too large for one refused, NaN and Infinity left for the search to reject by position.
 */
public final class JsonVector {
    private JsonVector() {
    }

    /** The floats of {@code text}; the error names {@code option} and the value at fault. */
    public static float[] parse(String text, String option) {
        try (JsonParser p = JsonFactories.READ.createParser(text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new LineFormatException(option, "expected a JSON array of numbers, e.g. [0.1, 0.2]");
            }
            float[] values = JsonValues.floats(p, option, 0);
            if (p.nextToken() != null) {
                throw new LineFormatException(option, "text after the array's closing bracket");
            }
            return values;
        } catch (JsonProcessingException e) {
            throw new LineFormatException(option, "not a JSON array of numbers: "
                    + JsonColumns.of(text).withoutParserLocation(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new UncheckedIOException(e); // reading a String does no I/O
        }
    }
}
