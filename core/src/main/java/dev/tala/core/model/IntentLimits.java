package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;

/** The bounds every intent must respect, in one place. */
public final class IntentLimits {
    /** Largest command, in bytes of UTF-8. */
    public static final int MAX_COMMAND_BYTES = 64 * 1024;
    /** Most outgoing edges on one intent. */
    public static final int MAX_EDGES = 1024;
    /** Largest embedding dimension a database may be created with. */
    public static final int MAX_DIMENSION = 65_536;
    /**
     * Latest timestamp a write may carry. Time ranges are half-open, {@code [from, to)} with
     * {@code to} at most {@code Long.MAX_VALUE}, so an intent stamped {@code Long.MAX_VALUE}
     * would be in no range. Checked on writes only: decoding stays as lenient as it was.
     */
    public static final long MAX_TIMESTAMP_NS = Long.MAX_VALUE - 1;

    private IntentLimits() {
    }

    /**
     * The length of {@code command} in UTF-8, counted without encoding it (this runs for every
     * intent built, decoded ones included).
     *
     * @throws InvalidIntentException for an unpaired surrogate, which has no UTF-8 form
     */
    public static int commandBytes(String command) {
        int bytes = 0;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < command.length()
                    && Character.isLowSurrogate(command.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                throw new InvalidIntentException("command", "is not valid Unicode (unpaired surrogate at char "
                        + i + ")");
            }
        }
        return bytes;
    }
}
