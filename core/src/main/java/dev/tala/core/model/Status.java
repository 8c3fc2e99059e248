package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;

/** What became of an intent; stored as TBF {@code outcome_status}. */
public enum Status {
    PENDING(0), SUCCESS(1), FAILURE(2), PARTIAL(3);

    private static final Status[] BY_CODE = values();
    private final byte code;

    Status(int code) {
        this.code = (byte) code;
    }

    /** The on-disk byte. */
    public byte code() {
        return code;
    }

    /** The lower-case name used in JSON and on the command line. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Status ofCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown status code " + code);
        }
        return BY_CODE[code];
    }

    public static boolean isValidCode(int code) {
        return code >= 0 && code < BY_CODE.length;
    }

    /** Parses a label such as {@code "success"}; the error lists the accepted values. */
    public static Status parse(String label) {
        for (Status s : BY_CODE) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new InvalidIntentException("status", "unknown status \"" + label
                + "\" (expected pending, success, failure or partial)");
    }
}
