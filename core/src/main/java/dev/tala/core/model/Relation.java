package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;

/** The kind of an edge between two intents; stored as the TBF edge {@code relation} byte. */
public enum Relation {
    CAUSAL(0), TEMPORAL(1), DEPENDENCY(2), RETRY(3), BRANCH(4);

    private static final Relation[] BY_CODE = values();
    private final byte code;

    Relation(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Relation ofCode(int code) {
        if (code < 0 || code >= BY_CODE.length) {
            throw new IllegalArgumentException("unknown relation code " + code);
        }
        return BY_CODE[code];
    }

    public static boolean isValidCode(int code) {
        return code >= 0 && code < BY_CODE.length;
    }

    public static Relation parse(String label) {
        for (Relation r : BY_CODE) {
            if (r.label().equals(label)) {
                return r;
            }
        }
        throw new InvalidIntentException("relation", "unknown relation \"" + label
                + "\" (expected causal, temporal, dependency, retry or branch)");
    }
}
