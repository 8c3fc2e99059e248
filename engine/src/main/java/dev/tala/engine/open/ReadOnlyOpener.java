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
 * Nothing in the directory is created or changed, and no lock is taken: a reader never keeps a
 * writer out, nor the reverse. Once open, it needs nothing from the directory but the segments it
 * has mapped, which are never changed in place (a deleted one stays mapped), and serves the state
 * as of its open.
 *
 * <p>While it opens, a writer may work beside it: a flush or compaction that commits changes the
 * MANIFEST (and may delete what was being read), and a writer that is still recovering deletes
 * partial segments, moves unlisted ones to lost/ and cuts torn WAL tails before it writes any
 * edit. So the MANIFEST (its length and checksum) is compared before and after, and the open is
 * made again when it changed, or when it failed while a writer holds the directory.
 */
public final class ReadOnlyOpener {
    /** How many times an open beside a busy writer is made before giving up. */
    static final int ATTEMPTS = 5;
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
        Throwable lastFailure = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (attempt > 1 && !pause(attempt)) {
                break;
            }
            boolean besideWriter = writerHolds(fs, layout);
            ManifestStamp before = ManifestStamp.of(fs, layout);
            Opened opened;
            try {
                opened = once(fs, layout, options, besideWriter);
            } catch (RuntimeException | InternalError e) {
                // InternalError: what a mapped read past a file's end raises (SIGBUS), when a
                // writer cut a WAL file this open had mapped.
                boolean stillWhole = before.equals(ManifestStamp.of(fs, layout));
                if (stillWhole && !besideWriter && !writerHolds(fs, layout)) {
                    throw e; // no writer, nothing committed: the error is the files'
                }
                lastFailure = stillWhole ? e : null;
                continue;
            }
            boolean unchanged;
            try {
                unchanged = before.equals(ManifestStamp.of(fs, layout));
            } catch (RuntimeException e) {
                opened.live().close();
                throw e;
            }
            if (unchanged) {
                return opened;
            }
            opened.live().close();
            lastFailure = null;
        }
        if (lastFailure instanceof RuntimeException e) {
            throw e; // the MANIFEST held still and the open still failed: the files' error, not the writer's
        }
        if (lastFailure != null) {
            throw new TalaException("cannot read the database in " + layout.dir() + ": a file changed while it"
                    + " was read, at each of " + ATTEMPTS + " attempts (the process that has it open is repairing"
                    + " or writing it); try again", lastFailure);
        }
        throw new TalaException("the database in " + layout.dir() + " changed while it was read, at each of "
                + ATTEMPTS + " attempts (the process that has it open is flushing or compacting); try again");
    }

    /**
     * Whether a writer has the directory open now: its exclusive lock refuses the shared one,
     * which is released at once if taken. No LOCK file means no writer (a writer creates it
     * before anything else); this creates none.
     */
    private static boolean writerHolds(FileLayer fs, DatabaseLayout layout) {
        if (!fs.exists(layout.lockFile())) {
            return false;
        }
        try (DirectoryLock probe = fs.lockShared(layout.lockFile())) {
            return false;
        } catch (DatabaseLockedException writerHasIt) {
            return true;
        } catch (IOException e) {
            throw new StorageException("cannot open " + layout.dir(), e);
        }
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
            Contents contents = DatabaseOpener.recoverContents(layout, options, stored, recovery, null, opened);
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
