package dev.tala.engine.open;

import dev.tala.compaction.CompactionPolicy;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LockCheckingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.Options;
import dev.tala.engine.compact.Compactor;
import dev.tala.engine.flush.FlushCounters;
import dev.tala.engine.flush.Flusher;
import dev.tala.engine.flush.ReplayFlusher;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.read.PointLookup;
import dev.tala.engine.view.LiveState;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.engine.view.VisibleSequence;
import dev.tala.engine.write.FailureState;
import dev.tala.engine.write.FileNumbers;
import dev.tala.engine.write.OpResolver;
import dev.tala.engine.write.StoredEmbeddings;
import dev.tala.engine.write.WritePath;
import dev.tala.recovery.DatabaseRecovery;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestState;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.format.TbfFormat;
import dev.tala.wal.Durability;
import dev.tala.wal.ReplayReport;
import dev.tala.wal.WalRecord;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * Opens a database directory: creates it when asked and absent, otherwise runs the recovery
 * procedure, replays the WAL into a fresh memtable, and wires the running components. On any
 * failure everything acquired so far is released, the lock last.
 */
public final class DatabaseOpener {
    /**
     * The wired components of an open database. A read-only one has no manifest, log, file
     * numbers, write path, flusher or compactor (those are null).
     */
    public record Opened(FileLayer fs, DatabaseLayout layout, StoredOptions stored, long memtableBytes,
                         Durability durability, DirectoryLock lock, Manifest manifest, LiveState live,
                         VisibleSequence visible, WriteAheadLog wal, FileNumbers files, FailureState failure,
                         WritePath writes, Flusher flusher, Compactor compactor, CompactionPolicy policy,
                         RecoveryReport report, boolean needsFlush) {
        public boolean readOnly() {
            return writes == null;
        }
    }

    /** What recovery rebuilt in memory: the live segments and the memtables the WAL replayed into. */
    record Contents(LiveState live, long lastSequence, long memtableBytes) {
    }

    private DatabaseOpener() {
    }

    public static Opened open(Path dir, Options options) {
        JvmFlags.require();
        DatabaseLayout layout = new DatabaseLayout(dir);
        DirectoryLock lock = lockOrCreateDirectory(options.fileLayer(), layout, options);
        FileLayer fs = new LockCheckingFileLayer(options.fileLayer(), lock);
        StoredOptions stored = underLock(lock, layout, () -> loadOrCreate(fs, layout, options));
        DatabaseRecovery recovery = DatabaseRecovery.begin(fs, layout, options.recoveryMode(), lock);
        return wireOrRelease(recovery, opened -> wire(fs, layout, options, stored, recovery, opened));
    }

    private interface LockedStep<T> {
        T run() throws IOException;
    }

    /** Runs {@code step} with the lock just taken, releasing the lock if it fails. */
    private static <T> T underLock(DirectoryLock lock, DatabaseLayout layout, LockedStep<T> step) {
        try {
            return step.run();
        } catch (IOException | RuntimeException e) {
            closeQuietly(lock);
            throw e instanceof IOException io ? new StorageException("cannot open " + layout.dir(), io)
                    : (RuntimeException) e;
        }
    }

    /**
     * Wires the components over what {@code recovery} opened; on failure closes what the wiring
     * registered in its list, newest first, then the recovery (and with it the lock).
     */
    static Opened wireOrRelease(DatabaseRecovery recovery, Function<List<AutoCloseable>, Opened> wiring) {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            return wiring.apply(opened);
        } catch (RuntimeException | Error e) {
            for (int i = opened.size() - 1; i >= 0; i--) {
                closeQuietly(opened.get(i));
            }
            recovery.close();
            throw e;
        }
    }

    /**
     * Builds the live state from recovery's segments and replays the WAL into its memtables.
     * Registers in {@code opened} what must be closed if a later step fails.
     *
     * @param flusher flushes during the replay (a writable open), or null to keep every
     *     replayed memtable in memory (a read-only open, which writes nothing)
     */
    static Contents recoverContents(DatabaseLayout layout, Options options, StoredOptions stored,
                                    DatabaseRecovery recovery, ReplayFlusher flusher, List<AutoCloseable> opened) {
        ManifestState manifestState = recovery.manifestState();
        List<SegmentHandle> handles = new ArrayList<>();
        for (Map.Entry<Long, SegmentReader> e : recovery.segments().entrySet()) {
            SegmentReader reader = e.getValue();
            if (reader.dimension() != stored.dimension()) {
                // Either side may be the damaged one: a segment, or OPTIONS (no checksum) edited.
                throw new CorruptionException(reader.path().toString(), TbfFormat.H_EMBEDDING_DIM, "embedding dimension "
                        + reader.dimension() + " differs from the database's " + stored.dimension() + ", which "
                        + layout.optionsFile() + " gives (tala verify lists every file that disagrees)");
            }
            SegmentMeta meta = manifestState.segments().get(e.getKey());
            handles.add(new SegmentHandle(reader, meta));
        }
        // The number the next WAL file would get, which a memtable with nothing replayed pins.
        long nextWal = recovery.nextFileNumber();
        long firstWal = recovery.walFiles().isEmpty() ? nextWal
                : DatabaseLayout.walNumber(recovery.walFiles().getFirst()).getAsLong();
        LiveState live = new LiveState(layout.dir(), new MemTable(firstWal), handles);
        recovery.takeSegments();
        opened.add(live::close);

        long memtableBytes = options.memtableBytes().orElse(stored.memtableBytes());
        ReplayReport replay;
        try (ReplayTarget target = new ReplayTarget(live, memtableBytes, stored, layout, flusher)) {
            replay = recovery.replayWal(target::apply);
        }
        return new Contents(live, Math.max(manifestState.lastSequence(), replay.lastSequence()), memtableBytes);
    }

    private static Opened wire(FileLayer fs, DatabaseLayout layout, Options options, StoredOptions stored,
                               DatabaseRecovery recovery, List<AutoCloseable> opened) {
        FileNumbers files = new FileNumbers(recovery.nextFileNumber());
        long walNumber = files.next();
        FlushCounters flushCounters = new FlushCounters();
        ReplayFlusher replayFlusher = new ReplayFlusher(fs, layout, files, options.maxImmutableMemtables(),
                stored.dimension(), stored.embeddingType(), flushCounters);
        opened.add(replayFlusher::discardUncommitted);
        Contents contents = recoverContents(layout, options, stored, recovery, replayFlusher, opened);
        LiveState live = contents.live();
        long memtableBytes = contents.memtableBytes();
        long lastSequence = contents.lastSequence();
        Manifest manifest = recovery.openManifest(options.manifestRewriteBytes());
        opened.add(manifest);

        Durability durability = options.durability().orElse(stored.durability());
        WriteAheadLog wal;
        try {
            wal = WriteAheadLog.create(fs, layout.walDir(), walNumber, lastSequence, durability,
                    options.walRecycleFiles(), recovery.spareWalFiles());
        } catch (IOException e) {
            throw new StorageException("cannot start a WAL file in " + layout.walDir(), e);
        }
        opened.add(wal);
        try {
            replayFlusher.commit(manifest, live, wal, files.peek());
        } catch (IOException e) {
            throw new StorageException("cannot list the segments the WAL replay flushed in " + layout.manifestFile(), e);
        }
        if (live.active().isEmpty() && live.immutableCount() == 0 && !recovery.walFiles().isEmpty()) {
            retireReplayedWal(fs, layout, live, manifest, wal, walNumber, files.peek(), lastSequence,
                    recovery.walFiles());
        }
        VisibleSequence visible = new VisibleSequence(lastSequence);
        FailureState failure = new FailureState();
        // A failure no writer sees (BATCH mode's periodic force) must still fail the database.
        wal.onFailure(e -> failure.fail("the write-ahead log failed", e));
        Flusher[] flusher = new Flusher[1];
        Compactor[] compactorRef = new Compactor[1];
        WritePath writes = new WritePath(live, wal, visible, files, failure, () -> flusher[0].schedule(),
                memtableBytes, options.maxImmutableMemtables(),
                options.backgroundCompaction() ? options.level0StallSegments() : 0,
                () -> compactorRef[0].settled(), stored.embeddingType());
        Compactor compactor = new Compactor(fs, layout, live, manifest, files, failure, writes::flushProgressed,
                new Compactor.Settings(options.compactionPolicy(), options.backgroundCompaction(),
                        options.compactionMoves(), options.compactionBytesPerSecond(), options.targetSegmentBytes(),
                        stored.embeddingType(), options.coldEmbeddingType(), options.coldLevel()));
        compactorRef[0] = compactor;
        opened.add(compactor::shutdown);
        flusher[0] = new Flusher(fs, layout, live, manifest, files, wal, failure, () -> {
            writes.flushProgressed();
            compactor.schedule();
        }, stored.dimension(), stored.embeddingType(), flushCounters);
        opened.add(flusher[0]::shutdown);
        RecoveryReport report = recovery.report(lastSequence, replayFlusher.committedSegments());
        DirectoryLock lock = recovery.takeLock();
        if (live.immutableCount() > 0) {
            flusher[0].schedule();
        }
        compactor.schedule();
        return new Opened(fs, layout, stored, memtableBytes, durability, lock, manifest, live, visible, wal, files,
                failure, writes, flusher[0], compactor, options.compactionPolicy(), report, recovery.needsFlush());
    }

    /**
     * The replayed WAL files added nothing to the memtable (a clean shutdown after a flush, or
     * only records already in segments): mark them obsolete and retire them (deleted, or kept
     * for reuse by a log that recycles files), so an idle database does not collect one WAL
     * file per open.
     */
    private static void retireReplayedWal(FileLayer fs, DatabaseLayout layout, LiveState live, Manifest manifest,
                                          WriteAheadLog wal, long walNumber, long nextFileNumber, long lastSequence,
                                          List<Path> replayed) {
        try {
            live.replaceEmptyActive(new MemTable(walNumber));
            // Recording the next file number keeps every number below the log number out of reuse;
            // recording the last sequence lets the next replay check that the new WAL file's
            // first record follows it (records skipped in a lenient replay still used numbers).
            manifest.append(dev.tala.recovery.manifest.ManifestEdit.builder().logNumber(walNumber)
                    .nextFileNumber(nextFileNumber).lastSequence(lastSequence).build());
            for (Path p : replayed) {
                wal.retire(p);
            }
            fs.syncDirectory(layout.walDir());
        } catch (IOException e) {
            throw new StorageException("cannot remove obsolete WAL files in " + layout.walDir(), e);
        }
    }

    /**
     * Where replayed records go: the active memtable, switched for a fresh one whenever it is
     * full, as writes would have switched it. A WAL can hold more than one memtable's worth (a
     * crash while frozen memtables waited for their flushes, or a smaller memtable size than
     * before), and a memtable past the size a flush can write would fail every open's flush.
     */
    private static final class ReplayTarget implements AutoCloseable {
        private final LiveState live;
        private final long memtableBytes;
        private final int dimension;
        private final EmbeddingType embeddingType;
        private final DatabaseLayout layout;
        private final ReplayFlusher flusher;
        /** Its active memtable is the one being filled, so outcomes see every earlier record. */
        private ReadView view;

        ReplayTarget(LiveState live, long memtableBytes, StoredOptions stored, DatabaseLayout layout,
                     ReplayFlusher flusher) {
            this.live = live;
            this.flusher = flusher;
            this.memtableBytes = memtableBytes;
            this.dimension = stored.dimension();
            this.embeddingType = stored.embeddingType();
            this.layout = layout;
            this.view = live.acquire();
        }

        /**
         * Applies one record from WAL file {@code walNumber} ({@code file}, at {@code offset});
         * an outcome whose intent is gone (after lenient recovery) is skipped.
         *
         * @throws TalaException if the record holds an embedding of another dimension than
         *     OPTIONS says: checksums cannot see which of the two is wrong, and taking either
         *     would fail the first search or flush
         */
        void apply(WalRecord record, long walNumber, Path file, long offset) {
            OptionalInt other = record.otherDimension(dimension);
            if (other.isPresent()) {
                throw new TalaException(file + " at offset " + offset + " holds an intent of embedding dimension "
                        + other.getAsInt() + " (sequence " + record.firstSequence() + "), but "
                        + layout.optionsFile() + " says the database's dimension is " + dimension
                        + "; refusing to open");
            }
            MemTable memtable = live.active();
            if (memtable.approximateBytes() >= memtableBytes) {
                // The new memtable pins the file this record is in, which the frozen one may share.
                memtable = new MemTable(walNumber);
                live.switchMemtable(memtable);
                flushExcess(walNumber);
                view.release();
                view = live.acquire();
            }
            ReadView current = view;
            // Logs written before puts were stored as the database's type hold the floats as given.
            List<OpResolver.Resolved> resolved = OpResolver.resolve(StoredEmbeddings.of(record.ops(), embeddingType),
                    id -> PointLookup.findLatest(current, id), false, embeddingType, Long.MAX_VALUE);
            for (int i = 0; i < resolved.size(); i++) {
                OpResolver.Resolved r = resolved.get(i);
                if (!r.skipped()) {
                    memtable.add(r.at(record.firstSequence() + i));
                }
            }
            memtable.noteLogged(record.lastSequence());
        }

        private void flushExcess(long replayingWal) {
            if (flusher == null) {
                return;
            }
            try {
                flusher.flushExcess(live, replayingWal);
            } catch (IOException e) {
                throw new StorageException("cannot flush a memtable the WAL replay filled, in " + layout.segmentDir(), e);
            }
        }

        @Override
        public void close() {
            view.release();
        }
    }

    private static DirectoryLock lockOrCreateDirectory(FileLayer fs, DatabaseLayout layout, Options options) {
        try {
            if (!options.createIfMissing()) {
                // Checked before locking, so that pointing at the wrong directory leaves no LOCK file behind.
                requireDatabase(fs, layout);
            } else if (fs.exists(layout.dir()) && !fs.isDirectory(layout.dir())) {
                throw new TalaException(layout.dir() + " is a file, not a database directory");
            } else {
                refuseFilesForDirectories(fs, layout);
            }
            if (!fs.exists(layout.optionsFile())) {
                // Also before locking, so that a directory of someone else's files gets no LOCK
                // file (deleting one afterwards could delete a LOCK another opener holds).
                refuseForeignFiles(fs, layout);
            }
            if (!fs.exists(layout.dir())) {
                createDurably(fs, layout.dir().toAbsolutePath());
            }
            return fs.lock(layout.lockFile());
        } catch (IOException e) {
            throw new StorageException("cannot open " + layout.dir(), e);
        }
    }

    /** Refuses a path that holds no database: a file, a missing directory, or one without OPTIONS. */
    static void requireDatabase(FileLayer fs, DatabaseLayout layout) {
        if (fs.exists(layout.dir()) && !fs.isDirectory(layout.dir())) {
            throw new TalaException(layout.dir() + " is a file, not a database directory");
        }
        if (!fs.exists(layout.optionsFile()) && surelyMissing(fs, layout)) {
            throw new TalaException("no database at " + layout.dir() + (fs.exists(layout.dir())
                    ? " (no OPTIONS file)" : " (the directory does not exist)"));
        }
        refuseFilesForDirectories(fs, layout);
    }

    /**
     * A file where wal/ or segments/ belongs: listing it finds nothing, as for a database
     * without WAL files, so a read-only open would serve the database without what that WAL
     * held, and a writable one fail later with "already exists".
     */
    static void refuseFilesForDirectories(FileLayer fs, DatabaseLayout layout) {
        List<Path> files = DatabaseRecovery.filesWhereDirectoriesBelong(fs, layout);
        if (!files.isEmpty()) {
            Path dir = files.getFirst();
            throw new TalaException(dir + " is not a directory but a file; the database keeps its "
                    + (dir.equals(layout.walDir()) ? "WAL" : "segment") + " files in that directory");
        }
    }

    /**
     * Whether OPTIONS is absent, not merely out of sight: exists() is false too when the lookup
     * itself fails (a directory the user may not enter, a symbolic link loop), and calling that
     * "no database" sends the operator looking for a database that is there.
     */
    private static boolean surelyMissing(FileLayer fs, DatabaseLayout layout) {
        try {
            fs.size(layout.optionsFile());
            return false;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            throw new StorageException("cannot open " + layout.dir(), e);
        }
    }

    /**
     * Creates {@code dir} and each missing parent, syncing the directory that holds each new
     * entry: a power loss could otherwise take a new parent, and the database in it, away.
     */
    private static void createDurably(FileLayer fs, Path dir) throws IOException {
        List<Path> missing = new ArrayList<>();
        for (Path d = dir; d != null && !fs.exists(d); d = d.getParent()) {
            missing.add(d);
        }
        fs.createDirectories(dir);
        for (Path created : missing.reversed()) {
            if (created.getParent() != null) {
                fs.syncDirectory(created.getParent());
            }
        }
    }

    /** Reads DIR/OPTIONS and checks it against the caller's options, or creates a new database. */
    private static StoredOptions loadOrCreate(FileLayer fs, DatabaseLayout layout, Options options) throws IOException {
        if (fs.exists(layout.optionsFile())) {
            StoredOptions stored = loadExisting(fs, layout, options);
            if (!fs.exists(layout.manifestFile())) {
                // Created up to OPTIONS, then interrupted: finish creating it, if nothing else exists.
                refuseLostManifest(fs, layout);
                Manifest.create(fs, layout.manifestFile(), ManifestState.EMPTY, options.manifestRewriteBytes()).close();
            }
            return stored;
        }
        if (!options.createIfMissing()) {
            throw new TalaException("no database at " + layout.dir() + " (no OPTIONS file)");
        }
        refuseForeignFiles(fs, layout);
        StoredOptions stored = new StoredOptions(
                options.dimension().orElse(Options.DEFAULT_DIMENSION),
                options.embeddingType().orElse(EmbeddingType.F32),
                options.memtableBytes().orElse(Options.DEFAULT_MEMTABLE_BYTES),
                options.durability().orElse(Durability.sync()));
        fs.createDirectories(layout.walDir());
        fs.createDirectories(layout.segmentDir());
        fs.syncDirectory(layout.dir());
        stored.write(fs, layout.optionsFile());
        Manifest.create(fs, layout.manifestFile(), ManifestState.EMPTY, options.manifestRewriteBytes()).close();
        return stored;
    }

    /** A missing MANIFEST beside segments was lost, not left unwritten by an interrupted creation. */
    static void refuseLostManifest(FileLayer fs, DatabaseLayout layout) throws IOException {
        CorruptionException lost = DatabaseRecovery.lostManifest(fs, layout);
        if (lost != null) {
            throw lost;
        }
    }

    /** Reads DIR/OPTIONS and checks the caller's dimension and embedding type, if given, against it. */
    static StoredOptions loadExisting(FileLayer fs, DatabaseLayout layout, Options options) throws IOException {
        StoredOptions stored = StoredOptions.read(fs, layout.optionsFile());
        if (options.dimension().isPresent() && options.dimension().getAsInt() != stored.dimension()) {
            throw new TalaException("the database in " + layout.dir() + " has embedding dimension "
                    + stored.dimension() + "; it cannot be opened with dimension " + options.dimension().getAsInt());
        }
        if (options.embeddingType().isPresent() && options.embeddingType().get() != stored.embeddingType()) {
            throw new TalaException("the database in " + layout.dir() + " stores embeddings as "
                    + stored.embeddingType().label() + "; it cannot be opened with " + options.embeddingType().get().label());
        }
        return stored;
    }

    /**
     * A database is created only in a directory holding no files but, at most, its LOCK and the
     * temporary OPTIONS of a creation that died before renaming it (rewritten by this one), and
     * whose WAL, segment and lost directories, if any, are empty. A database whose OPTIONS file
     * was lost still has its data there; creating a new one over it (with default options)
     * replayed its WAL into the wrong dimension and wrote an OPTIONS file that then refused the
     * right one.
     */
    private static void refuseForeignFiles(FileLayer fs, DatabaseLayout layout) throws IOException {
        for (Path p : fs.list(layout.dir())) {
            if (!p.equals(layout.lockFile()) && !p.equals(FileLayer.temporaryFor(layout.optionsFile()))) {
                throw new TalaException(layout.dir() + " holds files but no TalaDB OPTIONS file ("
                        + p.getFileName() + "); refusing to create a database there");
            }
        }
        for (Path sub : List.of(layout.walDir(), layout.segmentDir(), layout.lostDir())) {
            List<Path> held = fs.list(sub);
            if (!held.isEmpty()) {
                throw new TalaException(layout.dir() + " has no TalaDB OPTIONS file, but " + sub + " holds "
                        + held.size() + " file(s) (" + held.getFirst().getFileName() + "): a database whose OPTIONS"
                        + " file is missing; refusing to create a new one over its data (restore OPTIONS, see docs/FORMAT.md)");
            }
        }
    }

    static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already failing; the original error is what the caller needs
        }
    }
}
