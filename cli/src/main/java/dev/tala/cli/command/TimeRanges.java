package dev.tala.cli.command;

/** The checks {@code scan} and {@code search} make of a --from/--to time range, in one place. */
final class TimeRanges {
    private TimeRanges() {
    }

    /** Refuses a negative bound, and a range that ends before it starts: an empty answer would hide the mistake. */
    static void check(long from, long to) {
        if (from < 0 || to < 0) {
            throw new IllegalArgumentException("--from and --to are nanoseconds since the epoch and cannot be negative");
        }
        if (to < from) {
            throw new IllegalArgumentException("time range [" + from + ", " + to + ") ends before it starts");
        }
    }
}
