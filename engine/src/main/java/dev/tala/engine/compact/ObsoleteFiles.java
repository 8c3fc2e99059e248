package dev.tala.engine.compact;

import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.FileLayer;
import dev.tala.engine.background.CoalescingWorker;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes compaction inputs once no reader maps them, on a thread of its own. The last release
 * of an input often comes from a reader closing its view; a delete and a directory sync there
 * would make that read wait on the disk. The MANIFEST already records the files as removed, so
 * one that is never deleted here (the process dies first) is deleted by the next open.
 */
public final class ObsoleteFiles {
    private static final Logger LOG = LoggerFactory.getLogger(ObsoleteFiles.class);

    private final FileLayer fs;
    private final Queue<Path> pending = new ConcurrentLinkedQueue<>();
    private final CoalescingWorker worker = new CoalescingWorker("tala-obsolete-files", this::deletePending);

    public ObsoleteFiles(FileLayer fs) {
        this.fs = fs;
    }

    /** Queues {@code file} for deletion; returns at once. */
    public void delete(Path file) {
        pending.add(file);
        worker.request();
    }

    private void deletePending() {
        Set<Path> directories = new HashSet<>();
        for (Path file = pending.poll(); file != null; file = pending.poll()) {
            try {
                fs.delete(file);
                directories.add(file.getParent());
            } catch (IOException e) {
                LOG.warn("could not delete the obsolete segment {} ({}); the next open will", file, LoggedErrors.describe(e),
                        LoggedErrors.traceOf(e));
            }
        }
        for (Path dir : directories) {
            try {
                fs.syncDirectory(dir);
            } catch (IOException e) {
                LOG.warn("could not sync {} after deleting obsolete segments ({}); the next open will finish", dir,
                        LoggedErrors.describe(e), LoggedErrors.traceOf(e));
            }
        }
    }

    /** Stops the thread, then deletes what is still queued on the caller's thread (close, not a read). */
    public void close() {
        worker.stop(Duration.ofMinutes(1));
        deletePending();
    }
}
