package dev.tala.cli.output;

/**
 * Whether standard output can no longer be written: its reader left ({@code | head -1}) or the
 * disk filled. {@code System.out} swallows write errors, so a long command would otherwise go
 * on reading the whole database for output nobody gets; it asks this and stops early, and
 * {@code TalaCli.main} tells the two causes apart (a closed pipe exits 0, a full disk 1).
 */
public final class StdoutGone {
    private StdoutGone() {
    }

    /** True once a write to {@code System.out} failed; it flushes what {@code System.out} buffers. */
    public static boolean check() {
        return System.out.checkError();
    }
}
