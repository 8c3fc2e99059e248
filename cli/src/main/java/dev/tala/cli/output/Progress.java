package dev.tala.cli.output;

import java.io.PrintStream;

/**
 * A one-line progress bar with a rate, redrawn in place at most ten times a second, and only
 * when the output is a terminal; otherwise silent, so piped output stays clean.
 */
public final class Progress {
    private static final int BAR = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final String label;
    private final long total;
    private final String unit;
    private final PrintStream out;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private long lastDraw;
    private long done;

    public Progress(String label, long total, String unit) {
        this(label, total, unit, System.out, Terminal.isInteractive());
    }

    /** A bar on a terminal, except under {@code --json}, whose output is for a program. */
    public static Progress unlessJson(boolean json, String label, long total, String unit) {
        return new Progress(label, total, unit, System.out, Terminal.isInteractive() && !json);
    }

    public Progress(String label, long total, String unit, PrintStream out, boolean enabled) {
        this.label = label;
        this.total = total;
        this.unit = unit;
        this.out = out;
        this.enabled = enabled;
    }

    public void advance(long n) {
        update(done + n);
    }

    public void update(long doneSoFar) {
        this.done = doneSoFar;
        long now = System.nanoTime();
        if (enabled && now - lastDraw >= REDRAW_NANOS) {
            lastDraw = now;
            draw(now);
        }
    }

    private void draw(long now) {
        double seconds = Math.max(1e-9, (now - start) / 1e9);
        String rate = String.format("%,.0f %s/s", done / seconds, unit);
        if (total > 0) {
            int filled = (int) Math.min(BAR, BAR * done / total);
            out.printf("\r%s [%s%s] %3d%% %,d/%,d %s   ", label, "#".repeat(filled), " ".repeat(BAR - filled),
                    Math.min(100, 100 * done / total), done, total, rate);
        } else {
            out.printf("\r%s %,d %s %s   ", label, done, unit, rate);
        }
        out.flush();
    }

    /** Draws the final state and ends the line. */
    public void finish() {
        if (enabled) {
            draw(System.nanoTime());
            out.println();
        }
    }

    /** Seconds since the progress started. */
    public double elapsedSeconds() {
        return (System.nanoTime() - start) / 1e9;
    }
}
