package dev.tala.core.error;

import java.nio.file.Path;
import java.util.OptionalLong;

/** Another opener holds the database directory's LOCK file. */
public final class DatabaseLockedException extends TalaException {
    private final Path lockFile;
    private final OptionalLong holderPid;

    public DatabaseLockedException(Path lockFile, OptionalLong holderPid) {
        super("database locked: " + lockFile + " is held by "
                + (holderPid.isPresent() ? describe(holderPid.getAsLong()) : "another process"));
        this.lockFile = lockFile;
        this.holderPid = holderPid;
    }

    private static String describe(long pid) {
        return pid == ProcessHandle.current().pid() ? "this process (pid " + pid + ")" : "pid " + pid;
    }

    public Path lockFile() {
        return lockFile;
    }

    public OptionalLong holderPid() {
        return holderPid;
    }
}
