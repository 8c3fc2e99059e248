package dev.tala.engine.open;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.DatabaseLockedException;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.ReadOnlyFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.Options;
import dev.tala.engine.open.DatabaseOpener.Contents;
import dev.tala.engine.open.DatabaseOpener.Opened;
import dev.tala.engine.view.VisibleSequence;
import dev.tala.engine.write.FailureState;
import dev.tala.recovery.DatabaseRecovery;
import dev.tala.recovery.RecoveryReport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Opens an existing database to read it only, as RocksDB's {@code OpenForReadOnly} does: every
 * file access goes through a {@link ReadOnlyFileLayer}; recovery judges the files as a writable
 * open would, with the same errors, but repairs nothing; the WAL is replayed into memory only.
 * Once open, the reader needs nothing from the directory but the segments it has mapped, which
 * are never changed in place (a deleted one stays mapped), so it holds no lock: a writer may open
 * the database meanwhile, and the reader keeps the state as of its own open.
 *
 * <p>During the open itself the files must hold still. With no writer, the readers' shared lock
 * keeps one from starting (and its recovery from cutting what is being read) until the open is
 * done. Beside a writer that holds the database, the open reads while the writer works: a flush
 * or compaction that commits meanwhile changes the MANIFEST (and may delete what was being read),
 * so the MANIFEST (its length and checksum) is compared before and after, and the open is made
 * again when it changed, or when it failed (see {@link #besideWriter}).
 */
public final class ReadOnlyOpener {
    /** How many times an open beside a busy writer is made before giving up. */
    static final int ATTEMPTS_BESIDE_A_WRITER = 5;
    /** The pause before the second attempt; each later one waits as much longer again. */
    private static final long PAUSE_MILLIS = 50;

    private ReadOnlyOpener() {
    }

    /** Opens {@code dir} to read; see the class comment. */
    public static Opened open(Path dir, Options options) {
        JvmFlags.require();
        DatabaseLayout layout = new DatabaseLayout(dir);
        FileLayer fs = new ReadOnlyFileLayer(options.fileLayer());
        DatabaseOpener.requireDatabase(fs, layout);
        DirectoryLock shared;
        try {
            shared = fs.lockShared(layout.lockFile());
        } catch (DatabaseLockedException writerHasIt) {
            return besideWriter(fs, layout, options);
        } catch (IOException e) {
            throw new StorageException("cannot open " + layout.dir(), e);
        }
        try {
            return once(fs, layout, options, false);
        } finally {
            DatabaseOpener.closeQuietly(shared);
        }
    }

    /**
     * The open beside a writer, made again when it failed or the MANIFEST changed while it ran.
     * A failure with the MANIFEST unchanged is retried too: a writer that is still recovering
     * deletes partial segments, moves unlisted ones to lost/ and cuts torn WAL tails before it
     * writes any edit, and a file this open listed or mapped may be gone or shorter when read.
     * The pause between attempts gives such a writer time to finish its repairs.
     */
    private static Opened besideWriter(FileLayer fs, DatabaseLayout layout, Options options) {
        Throwable lastFailure = null;
        for (int attempt = 1; attempt <= ATTEMPTS_BESIDE_A_WRITER; attempt++) {
            if (attempt > 1 && !pause(attempt)) {
                break;
            }
            ManifestStamp before = ManifestStamp.of(fs, layout);
            try {
                Opened opened = once(fs, layout, options, true);
                if (before.equals(ManifestStamp.of(fs, layout))) {
                    return opened;
                }
                opened.live().close();
                lastFailure = null;
            } catch (RuntimeException | InternalError e) {
                // InternalError: what a mapped read past a file's end raises (SIGBUS), when a
                // writer cut a WAL file this open had mapped.
                lastFailure = before.equals(ManifestStamp.of(fs, layout)) ? e : null;
            }
        }
        if (lastFailure instanceof RuntimeException e) {
            throw e; // the MANIFEST held still and the open still failed: the files' error, not the writer's
        }
        if (lastFailure != null) {
            throw new TalaException("cannot read the database in " + layout.dir() + ": a file changed while it"
                    + " was read, " + ATTEMPTS_BESIDE_A_WRITER + " times (the process that has it open is repairing"
                    + " or writing it); try again", lastFailure);
        }
        throw new TalaException("the database in " + layout.dir() + " changed while it was read, "
                + ATTEMPTS_BESIDE_A_WRITER + " times (the process that has it open is flushing or compacting);"
                + " try again");
    }

    /** Waits a little longer before each attempt; false when interrupted (the flag stays set). */
    private static boolean pause(int attempt) {
        try {
            Thread.sleep(PAUSE_MILLIS * (attempt - 1));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The MANIFEST as it is now, by length and checksum (-1 and 0 if absent): an edit committed
     * since, appended or rewritten, changes it. Read through a mapping, as the MANIFEST reader
     * does, so that a huge one cannot exhaust the heap here either.
     */
    private record ManifestStamp(long size, int crc) {
        static ManifestStamp of(FileLayer fs, DatabaseLayout layout) {
            if (!fs.exists(layout.manifestFile())) {
                return new ManifestStamp(-1, 0);
            }
            try (MappedRegion region = fs.map(layout.manifestFile())) {
                MemorySegment bytes = region.segment();
                return new ManifestStamp(bytes.byteSize(), Crc32c.of(bytes, 0, bytes.byteSize()));
            } catch (IOException e) {
                throw new StorageException("cannot read " + layout.manifestFile(), e);
            }
        }
    }

    private static Opened once(FileLayer fs, DatabaseLayout layout, Options options, boolean besideWriter) {
        StoredOptions stored;
        try {
            stored = DatabaseOpener.loadExisting(fs, layout, options);
            if (!fs.exists(layout.manifestFile())) {
                // An interrupted creation reads as an empty MANIFEST, which the writable open writes.
                DatabaseOpener.refuseLostManifest(fs, layout);
            }
        } catch (IOException e) {
            throw new StorageException("cannot open " + layout.dir(), e);
        }
        DatabaseRecovery recovery = DatabaseRecovery.beginReadOnly(fs, layout, options.recoveryMode(),
                new NotHeld(layout.lockFile()), besideWriter);
        return DatabaseOpener.wireOrRelease(recovery, opened -> {
            Contents contents = DatabaseOpener.recoverContents(layout, options, stored, recovery, opened);
            RecoveryReport report = recovery.report(contents.lastSequence());
            return new Opened(fs, layout, stored, contents.memtableBytes(), stored.durability(), recovery.takeLock(),
                    null, contents.live(), new VisibleSequence(contents.lastSequence()), null, null,
                    new FailureState(), null, null, null, options.compactionPolicy(), report, false);
        });
    }

    /** What an open reader holds of the directory: nothing. */
    private record NotHeld(Path path) implements DirectoryLock {
        @Override
        public void close() {
        }
    }
}
