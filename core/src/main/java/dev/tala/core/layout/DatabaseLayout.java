package dev.tala.core.layout;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Where each file of a database directory lives, and how numbered files are named:
 * <pre>
 * DIR/LOCK                    held while a process has the database open
 * DIR/OPTIONS                 options fixed at creation (dimension, dtype, ...)
 * DIR/MANIFEST                append-only log of segment and WAL edits
 * DIR/wal/NNNN...NNNN.wal     WAL files, 20-digit increasing numbers
 * DIR/wal/NNNN...NNNN.wal.free  a finished WAL file set aside for reuse, being zero-filled
 * DIR/wal/NNNN...NNNN.wal.ready the same file once its zeros are durable: ready for reuse
 * DIR/segments/NNNN...N.tbf   TBF segments, named by segment id
 * DIR/lost/                   complete segments the manifest did not list, kept for inspection
 * </pre>
 */
public record DatabaseLayout(Path dir) {
    public static final String WAL_SUFFIX = ".wal";
    public static final String SEGMENT_SUFFIX = ".tbf";
    /** A WAL file whose records are in segments, kept to be zero-filled and reused. */
    public static final String FREE_WAL_SUFFIX = ".wal.free";
    /** A free WAL file renamed once its zero-fill was forced: reusable as it is, even after a restart. */
    public static final String READY_WAL_SUFFIX = ".wal.ready";
    private static final int NUMBER_DIGITS = 20;
    /**
     * The largest number a segment or WAL file of ours carries: more files than any database
     * makes (one a microsecond for 146,000 years). A name with a larger number is not one of
     * ours and is left alone, like any other foreign file; counted as ours, a stray
     * {@code 09223372036854775806.tbf} pushed the next file number to the end of the range, and
     * the next WAL switch overflowed it.
     */
    public static final long MAX_FILE_NUMBER = 1L << 62;
    /**
     * Numbers an open needs left below {@link #MAX_FILE_NUMBER}: a MANIFEST whose next file
     * number comes closer is refused as damaged rather than opened to fail at a later switch.
     */
    public static final long FILE_NUMBER_HEADROOM = 1L << 32;

    public DatabaseLayout {
        dir = dir.toAbsolutePath().normalize();
    }

    public Path lockFile() {
        return dir.resolve("LOCK");
    }

    public Path optionsFile() {
        return dir.resolve("OPTIONS");
    }

    public Path manifestFile() {
        return dir.resolve("MANIFEST");
    }

    public Path walDir() {
        return dir.resolve("wal");
    }

    public Path segmentDir() {
        return dir.resolve("segments");
    }

    public Path lostDir() {
        return dir.resolve("lost");
    }

    public Path walFile(long number) {
        return walDir().resolve(walFileName(number));
    }

    public Path segmentFile(long segmentId) {
        return segmentDir().resolve(segmentFileName(segmentId));
    }

    public static String walFileName(long number) {
        return numbered(number, WAL_SUFFIX);
    }

    /** The name a retired WAL file takes while it waits for reuse; no WAL file number matches it. */
    public static String freeWalFileName(long number) {
        return numbered(number, FREE_WAL_SUFFIX);
    }

    /** True for a WAL file set aside for reuse (named by {@link #freeWalFileName}). */
    public static boolean isFreeWalFile(Path file) {
        return freeWalNumber(file).isPresent();
    }

    /** The number in a free WAL file's name, or empty for any other name. */
    public static OptionalLong freeWalNumber(Path file) {
        return parseNumbered(file, FREE_WAL_SUFFIX);
    }

    /** The name a free WAL file takes once its zeros are durable; no WAL file number matches it. */
    public static String readyWalFileName(long number) {
        return numbered(number, READY_WAL_SUFFIX);
    }

    /** True for a zero-filled WAL file ready for reuse (named by {@link #readyWalFileName}). */
    public static boolean isReadyWalFile(Path file) {
        return parseNumbered(file, READY_WAL_SUFFIX).isPresent();
    }

    public static String segmentFileName(long segmentId) {
        return numbered(segmentId, SEGMENT_SUFFIX);
    }

    /** The number in a WAL file's name, or empty if the name is not one of ours. */
    public static OptionalLong walNumber(Path file) {
        return parseNumbered(file, WAL_SUFFIX);
    }

    /** The segment id in a segment file's name, or empty if the name is not one of ours. */
    public static OptionalLong segmentId(Path file) {
        return parseNumbered(file, SEGMENT_SUFFIX);
    }

    static String numbered(long number, String suffix) {
        if (number < 0) {
            throw new IllegalArgumentException("file numbers are >= 0, got " + number);
        }
        String digits = Long.toString(number);
        return "0".repeat(NUMBER_DIGITS - digits.length()) + digits + suffix;
    }

    /** True for a name of our shape ({@code suffix}, 20 digits) whose number is past {@link #MAX_FILE_NUMBER}. */
    public static boolean isNumberedPastLimit(Path file, String suffix) {
        return hasNumberedShape(file, suffix) && parseNumbered(file, suffix).isEmpty();
    }

    /** 20 decimal digits followed by {@code suffix}, whatever the number. */
    private static boolean hasNumberedShape(Path file, String suffix) {
        String name = file.getFileName().toString();
        return name.length() == NUMBER_DIGITS + suffix.length() && name.endsWith(suffix)
                && name.chars().limit(NUMBER_DIGITS).allMatch(c -> c >= '0' && c <= '9');
    }

    private static OptionalLong parseNumbered(Path file, String suffix) {
        if (!hasNumberedShape(file, suffix)) {
            return OptionalLong.empty();
        }
        long number;
        try {
            number = Long.parseLong(file.getFileName().toString().substring(0, NUMBER_DIGITS));
        } catch (NumberFormatException e) {
            return OptionalLong.empty(); // 20 digits can exceed a long
        }
        return number <= MAX_FILE_NUMBER ? OptionalLong.of(number) : OptionalLong.empty();
    }
}
