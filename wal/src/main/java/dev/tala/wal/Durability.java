package dev.tala.wal;

import java.time.Duration;

/**
 * When a write is acknowledged relative to the disk.
 *
 * <ul>
 *   <li>{@link #sync()}: after a force that covers it. Concurrent writers share one force.</li>
 *   <li>{@link #batch(Duration)}: after it reached the operating system; a background thread
 *       forces the log every interval, so a power loss loses at most that interval.</li>
 *   <li>{@link #none()}: after it reached the operating system; survives a process kill, not
 *       a power loss.</li>
 * </ul>
 */
public record Durability(Mode mode, Duration interval) {
    public enum Mode { SYNC, BATCH, NONE }

    /** The longest BATCH interval: a power loss may take that much. */
    public static final Duration MAX_BATCH_INTERVAL = Duration.ofDays(1);

    /**
     * @throws NullPointerException for a null mode (a log without one would force nothing)
     * @throws IllegalArgumentException for a BATCH interval that is not a whole number of
     *     milliseconds from 1 ms to {@link #MAX_BATCH_INTERVAL}: OPTIONS stores it in
     *     milliseconds, so a finer one would be reopened as another (a sub-millisecond one as 0,
     *     which then refused the database's every open)
     */
    public Durability {
        java.util.Objects.requireNonNull(mode, "durability mode (SYNC, BATCH or NONE)");
        if (mode == Mode.BATCH && (interval == null || interval.compareTo(Duration.ofMillis(1)) < 0
                || interval.compareTo(MAX_BATCH_INTERVAL) > 0 || !wholeMillis(interval))) {
            throw new IllegalArgumentException("BATCH durability needs an interval of whole milliseconds from 1 ms to "
                    + MAX_BATCH_INTERVAL.toMillis() + " ms (a day), got " + describe(interval));
        }
        if (mode != Mode.BATCH) {
            interval = Duration.ZERO;
        }
    }

    private static boolean wholeMillis(Duration interval) {
        return interval.getNano() % 1_000_000 == 0;
    }

    /** An interval as an operator wrote it: in milliseconds, or nanoseconds below one. */
    private static String describe(Duration interval) {
        if (interval == null) {
            return "none";
        }
        if (wholeMillis(interval)) {
            return interval.toMillis() + " ms";
        }
        return interval.compareTo(Duration.ofMillis(1)) < 0 ? interval.toNanos() + " ns" : interval.toString();
    }

    public static Durability sync() {
        return new Durability(Mode.SYNC, null);
    }

    public static Durability none() {
        return new Durability(Mode.NONE, null);
    }

    public static Durability batch(Duration interval) {
        return new Durability(Mode.BATCH, interval);
    }

    /** Parses "sync", "none" or "batch:&lt;millis&gt;" (as written in OPTIONS and on the command line). */
    public static Durability parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (t.equals("sync")) {
            return sync();
        }
        if (t.equals("none")) {
            return none();
        }
        // ASCII digits only: Long.parseLong also takes other scripts' digits and a plus sign.
        if (t.startsWith("batch:") && t.substring(6).matches("[0-9]+")) {
            try {
                return batch(Duration.ofMillis(Long.parseLong(t.substring(6))));
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
        }
        throw new IllegalArgumentException("durability \"" + text + "\" is not sync, none or batch:<millis>");
    }

    @Override
    public String toString() {
        return mode == Mode.BATCH ? "batch:" + interval.toMillis() : mode.name().toLowerCase(java.util.Locale.ROOT);
    }
}
