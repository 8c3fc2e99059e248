package dev.tala.core.error;

import java.nio.file.Path;
import java.util.OptionalLong;

/** Another opener holds the database directory's LOCK file. */
public final class DatabaseLockedException extends TalaException {
    private final Path lockFile;
    private final OptionalLong holderPid;
    private final boolean byReaders;

    /** Held by a writer: {@code holderPid} is the pid it wrote into the file, if readable. */
    public DatabaseLockedException(Path lockFile, OptionalLong holderPid) {
        this(lockFile, holderPid, holderPid.isPresent() ? describe(holderPid.getAsLong()) : "another process", false);
    }

    private DatabaseLockedException(Path lockFile, OptionalLong holderPid, String holder, boolean byReaders) {
        super("database locked: " + lockFile + " is held by " + holder);
        this.lockFile = lockFile;
        this.holderPid = holderPid;
        this.byReaders = byReaders;
    }

    /**
     * Held shared (by tala verify, or by a read-only open asking whether a writer holds it),
     * which writes nothing into the file (its pid, if any, is an earlier writer's);
     * {@code thisProcess} when one of the holders is in this process.
     */
    public static DatabaseLockedException heldByReaders(Path lockFile, boolean thisProcess) {
        return new DatabaseLockedException(lockFile, thisProcess ? OptionalLong.of(ProcessHandle.current().pid())
                : OptionalLong.empty(), thisProcess ? "a shared holder in this process (tala verify, or a read-only open)"
                : "shared holder(s) in another process (tala verify, or a read-only open)", true);
    }

    /** Whether shared holders hold it, not a writer. */
    public boolean byReaders() {
        return byReaders;
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
