package dev.tala.core.model;

/** The bounds every intent must respect, in one place. */
public final class IntentLimits {
    /** Largest command, in bytes of UTF-8. */
    public static final int MAX_COMMAND_BYTES = 64 * 1024;
    /** Most outgoing edges on one intent. */
    public static final int MAX_EDGES = 1024;
    /** Largest embedding dimension a database may be created with. */
    public static final int MAX_DIMENSION = 65_536;

    private IntentLimits() {
    }
}
