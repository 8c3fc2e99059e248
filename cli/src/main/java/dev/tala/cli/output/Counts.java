package dev.tala.cli.output;

import java.util.Locale;

/** A count and its noun for the commands' prose lines: "1 segment", "2,000 intents". */
public final class Counts {
    private Counts() {
    }

    /** {@code n} with thousands separators and {@code noun}, made plural with an "s" unless n is 1. */
    public static String of(long n, String noun) {
        return of(n, noun, noun + "s");
    }

    public static String of(long n, String singular, String plural) {
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? singular : plural);
    }
}
