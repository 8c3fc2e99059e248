package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Reads one typed value at the parser's current token, or explains in the field's name why it is
 * the wrong type or out of the range its Java type can hold. Range rules that core owns (a
 * timestamp must not be negative, confidence within [0, 1], values finite) are left to core.
 */
final class JsonValues {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    private static final String U64_MAX = "18446744073709551615";

    private JsonValues() {
    }

    static String string(JsonParser p, String field) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw wrongType(p, field, null, "a string");
        }
        return p.getText();
    }

    /**
     * A signed 64-bit integer. Core accepts timestamps and latencies in [0, 2^63-1] and rejects
     * negatives itself; here only values that do not fit a Java long are refused.
     */
    static long int64(JsonParser p, String field) throws IOException {
        return int64(p, field, Long.MAX_VALUE);
    }

    /**
     * As {@link #int64(JsonParser, String)}, for a field whose largest value is {@code max}: the
     * refusal of a value past a long names the limit core holds the field to, so that the value
     * it offers is accepted.
     */
    static long int64(JsonParser p, String field, long max) throws IOException {
        requireInteger(p, field);
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            String text = p.getText();
            throw new LineFormatException(field, (text.startsWith("-") ? "must be >= 0" : "must be at most "
                    + max) + ", got " + abbreviate(text));
        }
        return p.getLongValue();
    }

    static int int32(JsonParser p, String field) throws IOException {
        requireInteger(p, field);
        if (p.getNumberType() != JsonParser.NumberType.INT) {
            throw new LineFormatException(field, "must be a 32-bit integer (" + Integer.MIN_VALUE + " to "
                    + Integer.MAX_VALUE + "), got " + abbreviate(p.getText()));
        }
        return p.getIntValue();
    }

    /** An unsigned 64-bit integer, returned as the same 64 bits in a long. */
    static long uint64(JsonParser p, String field) throws IOException {
        requireInteger(p, field);
        switch (p.getNumberType()) {
            case INT, LONG -> {
                long value = p.getLongValue();
                if (value >= 0) {
                    return value;
                }
            }
            default -> {
                BigInteger value = p.getBigIntegerValue();
                if (value.signum() >= 0 && value.compareTo(TWO_TO_64) < 0) {
                    return value.longValue();
                }
            }
        }
        throw new LineFormatException(field, "must be between 0 and " + U64_MAX + ", got " + abbreviate(p.getText()));
    }

    /**
     * A 32-bit float, correctly rounded from the decimal text. NaN and Infinity literals pass
     * through for core to reject; a finite literal too large for a float is refused here, since
     * reporting "Infinity" for a value the user wrote as 1e39 would mislead.
     */
    static float float32(JsonParser p, String field, String subject) throws IOException {
        JsonToken token = p.currentToken();
        float value;
        if (token == JsonToken.VALUE_NUMBER_FLOAT) {
            value = p.getFloatValue();
            if (Float.isInfinite(value) && p.isNaN()) {
                return value; // an explicit Infinity literal
            }
        } else if (token == JsonToken.VALUE_NUMBER_INT) {
            // From the text rather than getFloatValue(): keeps the sign of "-0" and rounds huge
            // integers once, correctly.
            value = Float.parseFloat(p.getText());
        } else {
            throw wrongType(p, field, subject, "a number");
        }
        if (Float.isInfinite(value)) {
            throw new LineFormatException(field, (subject == null ? "" : subject + " ") + "(" + abbreviate(p.getText())
                    + ") is outside the range of a 32-bit float (largest magnitude " + Float.MAX_VALUE + ")");
        }
        return value;
    }

    /** An array of floats; {@code expected} sizes the buffer (the database dimension). */
    static float[] floats(JsonParser p, String field, int expected) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw wrongType(p, field, null, "an array of numbers");
        }
        float[] values = new float[Math.max(expected, 1)];
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
            }
            values[n] = float32(p, field, "value " + n);
            n++;
        }
        return n == values.length ? values : Arrays.copyOf(values, n);
    }

    static void requireInteger(JsonParser p, String field) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
            throw wrongType(p, field, null, "an integer");
        }
    }

    /** "must be an integer, got the string \"12\"", or "value 3 must be a number, got true". */
    static LineFormatException wrongType(JsonParser p, String field, String subject, String expected)
            throws IOException {
        return new LineFormatException(field, (subject == null ? "" : subject + " ") + "must be " + expected
                + ", got " + describe(p));
    }

    static String describe(JsonParser p) throws IOException {
        JsonToken token = p.currentToken();
        if (token == null) {
            return "nothing";
        }
        return switch (token) {
            case VALUE_STRING -> "the string " + quote(p.getText());
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "the number " + abbreviate(p.getText());
            case VALUE_TRUE -> "true";
            case VALUE_FALSE -> "false";
            case VALUE_NULL -> "null";
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            default -> token.asString() == null ? token.name() : token.asString();
        };
    }

    /** A value quoted for a message, shortened so that one bad line cannot flood the terminal. */
    static String quote(String text) {
        return "\"" + abbreviate(text) + "\"";
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
