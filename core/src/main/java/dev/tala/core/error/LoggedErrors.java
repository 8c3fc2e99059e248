package dev.tala.core.error;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * How the engine's log lines carry an error. A disk that is full, gone or read-only is an
 * operator's matter, and its message says everything: it is logged in one line. Anything else
 * may be a bug, and keeps its stack trace. (A full disk under {@code tala import} printed about
 * 120 lines of stack traces before the command's own one-line error.)
 */
public final class LoggedErrors {
    /** Deep enough for any real chain of causes; a cycle stops here too. */
    private static final int MAX_CAUSES = 16;

    private LoggedErrors() {
    }

    /** What went wrong, in one line, for a log message's last placeholder. */
    public static String describe(Throwable e) {
        return switch (e) {
            case IOException io -> StorageException.describe(io);
            case UncheckedIOException io -> StorageException.describe(io.getCause());
            case TalaException t -> t.getMessage();
            default -> e.toString();
        };
    }

    /**
     * The error to pass as a log call's throwable: null when it comes from an I/O error (its
     * deepest cause is one), so that the line has no stack trace; the error itself otherwise,
     * including an IOException that wraps a bug.
     */
    public static Throwable traceOf(Throwable e) {
        Throwable root = e;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < MAX_CAUSES; depth++) {
            root = root.getCause();
        }
        return root instanceof IOException ? null : e;
    }
}
