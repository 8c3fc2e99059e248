package dev.tala.recovery;

import dev.tala.core.checksum.ZeroRuns;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.LoggedErrors;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.ReadableFile;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.recovery.RecoveryReport.Action;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.recovery.manifest.ManifestState;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.wal.ReplayReport;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalHoleException;
import dev.tala.wal.WalRecord;
import dev.tala.wal.WalRecoveryMode;
import dev.tala.wal.WalReplayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open procedure of an existing database (docs/RECOVERY.md), in the order that makes it
 * safe after a crash at any instant:
 * <ol>
 *   <li>take the directory lock, so nothing else changes files while we judge them;</li>
 *   <li>replay the MANIFEST (a torn last edit is ignored): it alone says which segments are live;
 *       a writable open then forces it and syncs the directory, since a killed process may have
 *       left its last edit unforced, and the steps below delete on its word;</li>
 *   <li>triage segment files: listed ones are opened and validated; unlisted ones flagged
 *       {@code is_partial} are deleted (an interrupted flush or compaction); unlisted complete
 *       ones are moved to {@code lost/}, never deleted;</li>
 *   <li>delete WAL files the MANIFEST marks obsolete (a crash came between the edit and the delete);</li>
 *   <li>replay the remaining WAL files above the last flushed sequence number, in the chosen
 *       {@link WalRecoveryMode}, then cut off torn tails so the next open starts clean;</li>
 *   <li>rewrite the MANIFEST as a fresh snapshot, leaving any torn edit behind.</li>
 * </ol>
 * The caller (the engine) drives the steps because replay applies records to its memtable; on
 * success it takes ownership of the lock and the opened segments.
 */
public final class DatabaseRecovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseRecovery.class);

    private final FileLayer fs;
    private final DatabaseLayout layout;
    private final WalRecoveryMode mode;
    /** Judge and report, but change nothing: the open of a database only looked at. */
    private final boolean readOnly;
    /**
     * A read-only open beside the process that has the database open for writing: what looks
     * like damage (a partial segment, a torn tail) is most likely that writer's work in
     * progress, so it is reported quietly.
     */
    private final boolean besideWriter;
    private final List<Action> actions = new ArrayList<>();
    /** Whether {@link #report} has logged the actions (see {@link #close}). */
    private boolean reported;
    private final List<RecoveryReport.Step> steps = new ArrayList<>();
    private DirectoryLock lock;
    private ManifestState manifest;
    private long manifestTornBytes;
    private long manifestValidEnd;
    /** How many live segments triage found, counted before the caller takes them. */
    private int liveSegments;
    private final Map<Long, SegmentReader> segments = new LinkedHashMap<>();
    private List<Path> walFiles = List.of();
    /** Complete segments the MANIFEST does not list: set aside once replay shows the WAL holds their data. */
    private final List<Path> unlistedSegments = new ArrayList<>();
    private final List<Path> spareWalFiles = new ArrayList<>();
    private long nextFileNumber;
    private ReplayReport replay;
    private boolean needsFlush;
    private long stepStart = System.nanoTime();

    private DatabaseRecovery(FileLayer fs, DatabaseLayout layout, WalRecoveryMode mode, boolean readOnly,
                             boolean besideWriter) {
        this.fs = fs;
        this.layout = layout;
        this.mode = mode;
        this.readOnly = readOnly;
        this.besideWriter = besideWriter;
    }

    /**
     * Takes the lock, replays the MANIFEST, triages segment files and opens the live ones, and
     * removes obsolete WAL files. On failure everything taken is released.
     */
    public static DatabaseRecovery begin(FileLayer fs, DatabaseLayout layout, WalRecoveryMode mode) {
        DirectoryLock lock;
        try {
            lock = fs.lock(layout.lockFile());
        } catch (IOException e) {
            throw new StorageException("cannot lock " + layout.lockFile(), e);
        }
        return begin(fs, layout, mode, lock);
    }

    /**
     * As {@link #begin(FileLayer, DatabaseLayout, WalRecoveryMode)}, with the directory lock
     * already held by the caller (who created the database under it); it is released on failure.
     */
    public static DatabaseRecovery begin(FileLayer fs, DatabaseLayout layout, WalRecoveryMode mode, DirectoryLock lock) {
        return begin(new DatabaseRecovery(fs, layout, mode, false, false), lock);
    }

    /**
     * The same judgement as {@link #begin}, with no repair: nothing is deleted, moved, cut or
     * rewritten. Damage the WAL replay steps over stays in the files (torn tails are not
     * replayed, as in any open), and each repair a writable open would make is reported as left
     * undone; {@code besideWriter} when another process has the database open for writing (its
     * work in progress looks like damage, and is reported at debug level only).
     * {@link #openManifest} is not for such a recovery.
     */
    public static DatabaseRecovery beginReadOnly(FileLayer fs, DatabaseLayout layout, WalRecoveryMode mode,
                                                 DirectoryLock lock, boolean besideWriter) {
        return begin(new DatabaseRecovery(fs, layout, mode, true, besideWriter), lock);
    }

    private static DatabaseRecovery begin(DatabaseRecovery r, DirectoryLock lock) {
        FileLayer fs = r.fs;
        DatabaseLayout layout = r.layout;
        r.lock = lock;
        try {
            r.step("lock");
            r.removeTemporaryFiles();
            // Only a read-only open meets no MANIFEST (an interrupted creation, which a writable
            // open finishes by writing an empty one before this): it reads as that empty one.
            ManifestReader.Result m = r.readOnly && !fs.exists(layout.manifestFile())
                    ? new ManifestReader.Result(ManifestState.EMPTY, 0, 0, 0)
                    : ManifestReader.read(fs, layout.manifestFile());
            r.manifest = m.state();
            // Never below what the MANIFEST has handed out or retired: the newest WAL file may be
            // gone (a log that took no record deletes its file), and a new one numbered below
            // log_number would be taken for obsolete by the next open, its records with it.
            r.nextFileNumber = Math.max(r.nextFileNumber, Math.max(m.state().nextFileNumber(), m.state().logNumber()));
            if (r.nextFileNumber > DatabaseLayout.MAX_FILE_NUMBER - DatabaseLayout.FILE_NUMBER_HEADROOM) {
                // No database counts this far: a damaged or foreign MANIFEST. Opened, it would
                // name files past the numbers this layout reads back as its own.
                throw new CorruptionException(layout.manifestFile().toString(), m.validEnd(), "next_file_number"
                        + " or log_number " + r.nextFileNumber + " is within " + DatabaseLayout.FILE_NUMBER_HEADROOM
                        + " of the largest file number, " + DatabaseLayout.MAX_FILE_NUMBER
                        + ", which no database reaches by counting");
            }
            r.manifestTornBytes = m.tornTailBytes();
            r.manifestValidEnd = m.validEnd();
            if (m.tornTailBytes() > 0) {
                r.act(Action.Kind.IGNORED_MANIFEST_TAIL, layout.manifestFile(),
                        m.tornTailBytes() + " bytes after offset " + m.validEnd() + " were a torn edit");
            }
            if (!r.readOnly) {
                r.forceManifest();
            }
            r.step("manifest");
            r.triageSegments();
            r.step("segments");
            r.collectWalFiles();
            r.step("wal-files");
            return r;
        } catch (IOException e) {
            r.close();
            throw new StorageException("cannot open the database in " + layout.dir(), e);
        } catch (RuntimeException e) {
            r.close();
            throw e;
        }
    }

    public ManifestState manifestState() {
        return manifest;
    }

    /** The live segments, opened and validated, by id. Ownership passes with {@link #takeSegments()}. */
    public Map<Long, SegmentReader> segments() {
        return segments;
    }

    /** The first file number no existing file uses. */
    public long nextFileNumber() {
        return nextFileNumber;
    }

    /**
     * The WAL files replay reads, oldest first; after {@link #replayWal}, those of them still in
     * place (not deleted as header-less, not moved to {@code lost/}).
     */
    public List<Path> walFiles() {
        return walFiles;
    }

    /**
     * WAL files the last process set aside for reuse ({@code <n>.wal.ready}, zero-filled, and
     * {@code <n>.wal.free}, maybe not). Recovery leaves them alone: they hold nothing needed,
     * and the new log reuses them or deletes them ({@code WriteAheadLog.create}).
     */
    public List<Path> spareWalFiles() {
        return List.copyOf(spareWalFiles);
    }

    /** True when the WAL was replayed around damage that stays in the files: flush before it is read again. */
    public boolean needsFlush() {
        return needsFlush;
    }

    /**
     * Replays the WAL above the MANIFEST's last sequence number into {@code apply}, then repairs
     * the files so the next open sees no damage: torn tails are truncated; in point-in-time mode
     * the file is cut at the stop point and later files are moved to {@code lost/}. {@code apply}
     * is told where each record was read as well.
     */
    public ReplayReport replayWal(WalReplayer.LocatedConsumer apply) {
        try {
            replay = WalReplayer.replayLocated(fs, walFiles, manifest.lastSequence(), mode, apply);
        } catch (WalHoleException hole) {
            if (hole.belowFirstRecord()) {
                // The oldest WAL file starts above what the MANIFEST says is in segments. Either
                // the MANIFEST lost its last edits (their WAL files are already deleted), or WAL
                // files were removed by hand; the MANIFEST is where the state went wrong.
                String torn = manifestTornBytes > 0 ? "the " + manifestTornBytes + " bytes after this offset were"
                        + " taken for a torn edit, but " : "the MANIFEST ends here, but ";
                throw new CorruptionException(layout.manifestFile().toString(), manifestValidEnd, torn + "its last"
                        + " sequence " + (hole.firstMissing() - 1) + " does not reach the oldest WAL record: sequences "
                        + hole.firstMissing() + ".." + hole.lastMissing() + " are in no listed segment and no WAL file"
                        + " (the MANIFEST lost edits whose WAL files are deleted, or WAL files are missing)", hole);
            }
            throw hole;
        }
        setAsideUnlistedSegments(Math.max(manifest.lastSequence(), replay.lastSequence()));
        step("wal-replay");
        Set<Path> removed = new HashSet<>();
        try {
            // The files after a point-in-time stop go first, newest first, each move synced: a
            // crash anywhere in this repair then leaves a prefix of the log, which a later
            // point-in-time or skip-corrupted open reads as a shorter log. Cutting the stop's
            // file first left, after a crash, later files behind a cut one, and a skip-corrupted
            // open took their records without the cut ones.
            for (ReplayReport.FileReport f : replay.files().reversed()) {
                if (f.ignored()) {
                    moveToLost(f.file(), "after the point-in-time stop at " + replay.stoppedAt().file().getFileName()
                            + " offset " + replay.stoppedAt().offset(), Action.Kind.DROPPED_WAL_AFTER_STOP);
                    removed.add(f.file());
                }
            }
            for (ReplayReport.FileReport f : replay.files()) {
                if (f.ignored()) {
                    continue;
                }
                boolean stopHere = stoppedIn(f) && f.droppedTailBytes() > 0;
                // What follows a point-in-time stop, a skipped range, or writes lost out of order
                // may be intact records: the file is copied as it was before anything here changes it.
                Path copy = stopHere || !f.skipped().isEmpty() || f.lostWrites() != null ? copyToLost(f.file()) : null;
                if (f.droppedTailBytes() > 0 || f.size() == 0) {
                    // An empty file was created by a process that died before writing its header.
                    // Left in place, it would sit below the WAL file this open creates, where an
                    // incomplete header is no longer a torn tail and the next open would refuse it.
                    String why;
                    if (stopHere) {
                        why = "dropped at the point-in-time stop (" + replay.stoppedAt().what() + ")" + keptAs(copy);
                    } else if (f.lostWrites() != null) {
                        why = "writes the crash lost out of order: " + f.lostWrites() + ", none of them"
                                + " acknowledged as durable" + keptAs(copy);
                    } else {
                        why = "a write torn by the crash";
                    }
                    if (cutTail(f, why, copy != null)) {
                        removed.add(f.file());
                    }
                } else if (!readOnly) {
                    // Its records may be only in the page cache (a process killed in NONE or
                    // BATCH mode): forced before this open writes a newer WAL file, or a power
                    // loss would turn its lost tail into damage in an older file.
                    fs.force(f.file());
                }
                for (ReplayReport.Skipped skip : f.skipped()) {
                    act(Action.Kind.SKIPPED_WAL_RECORD, f.file(), skip.length() + " damaged bytes at offset "
                            + skip.offset() + " (" + skip.what() + ")" + keptAs(copy));
                }
                if (!f.skipped().isEmpty()) {
                    // The file is deleted once this flush has its records in a segment.
                    needsFlush = true;
                }
            }
        } catch (IOException e) {
            throw new StorageException("cannot repair the WAL in " + layout.walDir(), e);
        }
        // What the open retires when replay added nothing: only the files still here. A file
        // deleted or set aside above, retired again, failed the open (a recycling log renames
        // what it retires, and the rename found nothing).
        walFiles = walFiles.stream().filter(p -> !removed.contains(p)).toList();
        step("wal-repair");
        return replay;
    }

    /**
     * Opens the MANIFEST for appending. When it ends in a torn edit, or has grown past
     * {@code rewriteBytes}, it is first rewritten as one snapshot edit of the recovered state, so
     * that no edit is ever appended after damage; otherwise it is appended to as it is (the next
     * file number, recomputed from the files at every open, needs no edit).
     */
    public Manifest openManifest(long rewriteBytes) {
        if (readOnly) {
            throw new IllegalStateException("a read-only recovery does not open the MANIFEST for writing");
        }
        try {
            ManifestState state = new ManifestState(manifest.segments(), manifest.logNumber(),
                    Math.max(manifest.nextFileNumber(), nextFileNumber), manifest.lastSequence(), manifest.obsolete());
            Manifest m;
            if (manifestTornBytes == 0 && fs.size(layout.manifestFile()) <= rewriteBytes) {
                m = Manifest.append(fs, layout.manifestFile(), state, rewriteBytes);
                step("manifest-open");
            } else {
                // Obsolete segments are gone (triage deleted any left), so the snapshot need not
                // remember them; but a process killed before it synced segments/ after deleting
                // some leaves those deletions undurable, and a power loss would bring the files
                // back under ids no edit names any more: moved to lost/, not deleted. Synced first.
                if (!manifest.obsolete().isEmpty()) {
                    fs.syncDirectory(layout.segmentDir());
                }
                state = state.withObsolete(new java.util.TreeSet<>());
                m = Manifest.create(fs, layout.manifestFile(), state, rewriteBytes);
                step("manifest-rewrite");
            }
            m.forgetDeletedObsoleteSegments(new Manifest.DeletedSegments() {
                @Override
                public boolean isDeleted(long id) {
                    return !fs.exists(layout.segmentFile(id));
                }

                @Override
                public void makeDeletionsDurable() throws IOException {
                    fs.syncDirectory(layout.segmentDir());
                }
            });
            manifest = state;
            return m;
        } catch (IOException e) {
            throw new StorageException("cannot open " + layout.manifestFile() + " for writing", e);
        }
    }

    /** The report, once the caller knows the last sequence number it recovered. */
    public RecoveryReport report(long lastSequence) {
        return report(lastSequence, 0);
    }

    /**
     * The report, with {@code addedSegments} the caller listed in the MANIFEST after the
     * recovery's own steps (the segments a writable open's WAL replay flushed).
     */
    public RecoveryReport report(long lastSequence, int addedSegments) {
        int listed = (segments.isEmpty() ? liveSegments : segments.size()) + addedSegments;
        RecoveryReport report = new RecoveryReport(List.copyOf(actions), replay, List.copyOf(steps), listed,
                manifestTornBytes, lastSequence);
        reported = true;
        if (report.isClean() || besideWriter) {
            // One line for an open that repaired nothing; the timed steps are there for whoever asks.
            LOG.info("{}", report.headline());
            LOG.debug("{}", report.summary());
        } else {
            LOG.warn("{}", report.summary());
        }
        return report;
    }

    /** Hands the lock to the caller; {@link #close()} will no longer release it. */
    public DirectoryLock takeLock() {
        DirectoryLock l = lock;
        lock = null;
        return l;
    }

    /** Hands the opened segments to the caller; {@link #close()} will no longer close them. */
    public Map<Long, SegmentReader> takeSegments() {
        liveSegments = segments.size();
        Map<Long, SegmentReader> out = new LinkedHashMap<>(segments);
        segments.clear();
        return out;
    }

    /**
     * Releases whatever the caller did not take. An open that fails after recovery repaired
     * something never logs its report, so the repairs are logged here: an operator reading why
     * the open failed also learns what it had already changed. A read-only open changed
     * nothing, and may be tried again (see ReadOnlyOpener), so it logs nothing here.
     */
    @Override
    public void close() {
        if (!reported && !readOnly) {
            for (Action a : actions) {
                if (a.isRepair()) {
                    LOG.warn("recovery: {} (before the open failed)", a);
                }
            }
        }
        segments.values().forEach(SegmentReader::close);
        segments.clear();
        if (lock != null) {
            try {
                lock.close();
            } catch (IOException e) {
                LOG.warn("cannot release {}: {}", layout.lockFile(), LoggedErrors.describe(e), LoggedErrors.traceOf(e));
            }
            lock = null;
        }
    }

    // ---- steps ----------------------------------------------------------------------------

    /**
     * Makes the MANIFEST this open has read durable before anything is deleted on its word. A
     * process killed after appending an edit, or after renaming a rewrite into place, and before
     * forcing it, leaves that edit in the page cache only: an open that deleted the WAL files or
     * segments the edit retires, and then a power loss that took the edit back, left a MANIFEST
     * that lists files that are gone, or none of the segment holding acknowledged writes
     * ({@code KilledManifestCommitTest}). The directory sync covers the rename.
     */
    private void forceManifest() throws IOException {
        fs.force(layout.manifestFile());
        fs.syncDirectory(layout.dir());
    }

    /** A crash during an atomic rewrite (write beside, rename over) leaves the unrenamed copy. */
    private void removeTemporaryFiles() throws IOException {
        for (Path target : List.of(layout.manifestFile(), layout.optionsFile())) {
            Path tmp = FileLayer.temporaryFor(target);
            if (fs.exists(tmp)) {
                delete(tmp);
                act(Action.Kind.DELETED_TEMPORARY_FILE, tmp, "an atomic rewrite of " + target.getFileName()
                        + " was interrupted before its rename");
            }
        }
        for (Path p : fs.list(layout.lostDir())) {
            if (p.getFileName().toString().endsWith(FileLayer.TEMPORARY_SUFFIX)) {
                // The copy is redone from the WAL file, which is untouched until a copy is complete.
                delete(p);
                act(Action.Kind.DELETED_TEMPORARY_FILE, p, "a copy into lost/ was interrupted before its rename");
            }
        }
    }

    /**
     * Opens the listed segments first, and only then deletes or moves aside the unlisted ones:
     * an open that is going to fail (a listed segment missing or damaged) changes nothing, so
     * the files an operator needs to repair it are where they were.
     */
    private void triageSegments() throws IOException {
        List<Path> files = fs.list(layout.segmentDir());
        openListedSegments(files);
        long maxId = 0;
        boolean deleted = false;
        for (Path p : files) {
            OptionalLong id = DatabaseLayout.segmentId(p);
            if (id.isEmpty()) {
                continue;
            }
            maxId = Math.max(maxId, id.getAsLong());
            if (manifest.segments().containsKey(id.getAsLong())) {
                continue;
            }
            if (manifest.obsolete().contains(id.getAsLong())) {
                delete(p);
                deleted = true;
                act(Action.Kind.DELETED_OBSOLETE_SEGMENT, p, "a compaction input the MANIFEST removed, left by"
                        + " a process that stopped before deleting it (a crash, or a close while a snapshot still read it)");
                continue;
            }
            String unlisted = UnlistedSegments.whyIncomplete(fs, p);
            if (unlisted != null) {
                delete(p);
                deleted = true;
                act(Action.Kind.DELETED_PARTIAL_SEGMENT, p, unlisted);
            } else {
                unlistedSegments.add(p);
            }
        }
        if (deleted && !readOnly) {
            fs.syncDirectory(layout.segmentDir());
        }
        nextFileNumber = Math.max(nextFileNumber, maxId + 1);
    }

    private void openListedSegments(List<Path> files) throws IOException {
        TreeMap<Long, SegmentMeta> counted = new TreeMap<>(manifest.segments());
        for (long id : manifest.segments().keySet()) {
            Path p = layout.segmentFile(id);
            if (!fs.exists(p)) {
                throw new CorruptionException(layout.manifestFile().toString(), 0,
                        "lists segment " + id + " but " + p + " is missing" + unlistedHint(files));
            }
            SegmentReader reader = SegmentReader.open(fs, p);
            segments.put(id, reader);
            SegmentMeta listed = counted.get(id);
            CorruptionException refused = ListedSegmentCheck.refusal(layout.manifestFile(), listed, reader);
            if (refused != null) {
                throw refused;
            }
            long tombstones = reader.footer().tombstoneCount();
            if (listed.tombstones() != tombstones) {
                // An entry of the MANIFEST's first version has no tombstone count (it reads as
                // 0); the footer has it, and the tiered policy's tombstone check needs it.
                counted.put(id, listed.withTombstones(tombstones));
            }
        }
        manifest = new ManifestState(counted, manifest.logNumber(), manifest.nextFileNumber(),
                manifest.lastSequence(), manifest.obsolete());
    }

    /**
     * Moves the complete segments the MANIFEST does not list to {@code lost/}: a flush or
     * compaction whose MANIFEST edit never became durable, whose data the WAL or the listed
     * segments still hold. A segment with sequence numbers above {@code reached} (the highest
     * the MANIFEST and the WAL know) is different: the WAL is cut only after a flush's edit is
     * forced, so its edit was durable and is now damaged, not torn, and moving the segment
     * aside would open the database without acknowledged writes (it did, silently, after one
     * flipped bit in the last edit). The strict modes refuse such an open and move nothing;
     * the lenient ones, which already drop data they cannot vouch for, move it and report it.
     */
    private void setAsideUnlistedSegments(long reached) {
        try {
            boolean strict = mode == WalRecoveryMode.TOLERATE_CORRUPTED_TAIL
                    || mode == WalRecoveryMode.ABSOLUTE_CONSISTENCY;
            for (Path p : strict ? unlistedSegments : List.<Path>of()) {
                long newest = UnlistedSegments.newestSequence(fs, p);
                if (newest > reached) {
                    String torn = manifestTornBytes > 0 ? "the " + manifestTornBytes + " bytes after this offset"
                            + " were taken for a torn edit, but " : "the MANIFEST ends here, but ";
                    throw new CorruptionException(layout.manifestFile().toString(), manifestValidEnd, torn + p
                            + ", which it does not list, holds sequences up to " + newest + " and neither the"
                            + " MANIFEST nor any WAL file reaches past " + reached + ": the edit that listed it is"
                            + " damaged (or the file came from elsewhere); the segment is left in place, and a"
                            + " lenient recovery mode would set it aside in lost/");
                }
            }
            for (Path p : unlistedSegments) {
                moveToLost(p, UnlistedSegments.whySetAside(fs, p), Action.Kind.MOVED_TO_LOST);
            }
            unlistedSegments.clear();
        } catch (IOException e) {
            throw new StorageException(readOnly ? "cannot read the unlisted segments in " + layout.segmentDir()
                    : "cannot move unlisted segments to " + layout.lostDir(), e);
        }
    }

    /** For an operator repairing a MANIFEST: the segments it does not list, and its torn tail. */
    private String unlistedHint(List<Path> files) {
        List<Long> unlisted = new ArrayList<>();
        for (Path p : files) {
            OptionalLong id = DatabaseLayout.segmentId(p);
            if (id.isPresent() && !manifest.segments().containsKey(id.getAsLong())
                    && !manifest.obsolete().contains(id.getAsLong())) {
                unlisted.add(id.getAsLong());
            }
        }
        if (unlisted.isEmpty()) {
            return "";
        }
        String torn = manifestTornBytes == 0 ? "" : "; the " + manifestTornBytes + " bytes after offset "
                + manifestValidEnd + " were taken for a torn edit, and may be the edit that listed them";
        return " (segments the MANIFEST does not list are present and were left in place: " + unlisted + torn + ")";
    }

    /**
     * Null unless the MANIFEST, missing, was lost rather than never written: a creation cut
     * short after OPTIONS has no segments (an open finishes it with an empty MANIFEST and replays
     * any WAL files), while beside segments nothing says which of them are live.
     */
    public static CorruptionException lostManifest(FileLayer fs, DatabaseLayout layout) throws IOException {
        return fs.list(layout.segmentDir()).isEmpty() ? null : new CorruptionException(
                layout.manifestFile().toString(), 0, "MANIFEST is missing but segments exist; refusing to guess which"
                + " are live");
    }

    /**
     * Null unless {@code p} is a WAL file of ours named past {@link DatabaseLayout#MAX_FILE_NUMBER},
     * which every open refuses: a stray segment name once made an open number its WAL file near the
     * end of the long range, and such a file may hold acknowledged records, which are never left
     * behind without a word. A file of that name that is no WAL file is foreign.
     */
    static CorruptionException walNamedPastLimit(FileLayer fs, DatabaseLayout layout, Path p) throws IOException {
        if (!DatabaseLayout.isNumberedPastLimit(p, DatabaseLayout.WAL_SUFFIX) || !startsWithWalMagic(fs, p)) {
            return null;
        }
        return new CorruptionException(p.toString(), 0, "named as a WAL file numbered past "
                + DatabaseLayout.MAX_FILE_NUMBER + ", which no file of this database can be; if an earlier"
                + " version wrote it (a stray file's number misled it), its records cannot be replayed in"
                + " order: move it out of " + layout.walDir() + " to open the database without them");
    }

    private static boolean startsWithWalMagic(FileLayer fs, Path p) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(WalFormat.MAGIC.length);
        try (ReadableFile in = fs.openForRead(p)) {
            if (in.size() < head.capacity()) {
                return false;
            }
            in.readFully(0, head);
        }
        return java.util.Arrays.equals(head.array(), WalFormat.MAGIC);
    }

    private void collectWalFiles() throws IOException {
        long logNumber = manifest.logNumber();
        boolean deleted = false;
        // One listing, sorted by name: the 20-digit numbers put the WAL files in number order.
        for (Path p : fs.list(layout.walDir())) {
            if (DatabaseLayout.isFreeWalFile(p) || DatabaseLayout.isReadyWalFile(p)) {
                spareWalFiles.add(p);
                continue;
            }
            OptionalLong number = DatabaseLayout.walNumber(p);
            CorruptionException pastLimit = walNamedPastLimit(fs, layout, p);
            if (pastLimit != null) {
                throw pastLimit;
            }
            if (number.isEmpty()) {
                continue;
            }
            long n = number.getAsLong();
            nextFileNumber = Math.max(nextFileNumber, n + 1);
            if (n < logNumber) {
                delete(p);
                deleted = true;
                act(Action.Kind.DELETED_OBSOLETE_WAL, p, "below log number " + logNumber + ": its records are in segments");
            }
        }
        if (deleted && !readOnly) {
            fs.syncDirectory(layout.walDir());
        }
        walFiles = WalReplayer.walFiles(fs, layout.walDir(), logNumber);
    }

    /**
     * The paths among wal/ and segments/ that are there but are not directories. Listing such a
     * path finds nothing, as for a database without WAL files or segments, so every open refuses
     * it (DatabaseOpener) and verify lists it (DatabaseVerifier).
     */
    public static List<Path> filesWhereDirectoriesBelong(FileLayer fs, DatabaseLayout layout) {
        List<Path> files = new ArrayList<>();
        for (Path dir : List.of(layout.walDir(), layout.segmentDir())) {
            if (fs.exists(dir) && !fs.isDirectory(dir)) {
                files.add(dir);
            }
        }
        return files;
    }

    /**
     * Cuts {@code f} after its last intact record, or removes it if not even its header is intact
     * (a read-only recovery only reports it). A file without a header is deleted when a crash
     * can have left it so; one holding more than zeros past where its header would end is not
     * what a crash leaves (records are written only after the header is forced), so unless
     * {@code copied} to lost/ already, it is moved there, like any file recovery cannot vouch for.
     *
     * @return whether the file was removed (or, read-only, would have been)
     */
    private boolean cutTail(ReplayReport.FileReport f, String why, boolean copied) throws IOException {
        if (f.validEnd() == 0) {
            if (!copied && holdsDataPastHeader(fs, f.file())) {
                moveToLost(f.file(), "its header is not intact and no record in it is (" + f.size() + " bytes; " + why
                        + "), but it holds more than zeros past where the header would end", Action.Kind.MOVED_TO_LOST);
                return true;
            }
            delete(f.file());
            if (!readOnly) {
                fs.syncDirectory(layout.walDir());
            }
            act(Action.Kind.TRUNCATED_WAL_TAIL, f.file(), (readOnly ? "" : "deleted: ") + "its header is not intact ("
                    + f.size() + " bytes; " + why + ")");
            return true;
        }
        if (!readOnly) {
            try (WritableFile out = fs.openForAppend(f.file())) {
                out.truncate(f.validEnd());
                out.force();
            }
        }
        act(Action.Kind.TRUNCATED_WAL_TAIL, f.file(), f.droppedTailBytes() + " bytes after offset " + f.validEnd()
                + " (" + why + ")");
        return false;
    }

    /**
     * Whether WAL file {@code p} holds a byte other than zero past {@link WalFormat#FILE_HEADER_BYTES}:
     * what a crash while creating it cannot leave, whether it was new (nothing past the header)
     * or reused (zero-filled and forced before its header was written).
     */
    static boolean holdsDataPastHeader(FileLayer fs, Path p) throws IOException {
        if (fs.size(p) <= WalFormat.FILE_HEADER_BYTES) {
            return false;
        }
        // Mapped, as replay reads the same file, and scanned as its scanner finds a zero-filled tail.
        try (MappedRegion file = fs.map(p)) {
            return ZeroRuns.nextNonZero(file.segment(), WalFormat.FILE_HEADER_BYTES) < file.segment().byteSize();
        }
    }

    private boolean stoppedIn(ReplayReport.FileReport f) {
        return replay.stoppedAt() != null && replay.stoppedAt().file().equals(f.file());
    }

    /**
     * Copies {@code p} into {@code lost/} (durably) and returns the copy's path: for a WAL file
     * whose damaged or unreplayed bytes recovery drops while the file itself must stay until
     * its records are in a segment. Null in a read-only recovery, which copies nothing.
     */
    private Path copyToLost(Path p) throws IOException {
        if (readOnly) {
            return null;
        }
        Path target = lostTarget(p);
        // Written under a temporary name and renamed once forced, so that a crash midway cannot
        // leave a partial copy that looks like the file as it was.
        Path partial = FileLayer.temporaryFor(target);
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        try (ReadableFile in = fs.openForRead(p); WritableFile out = fs.create(partial)) {
            long size = in.size();
            for (long at = 0; at < size; at += chunk.capacity()) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), size - at));
                in.readFully(at, chunk);
                out.append(chunk.flip());
            }
            out.force();
        }
        fs.rename(partial, target);
        fs.syncDirectory(target.getParent());
        return target;
    }

    /** Where a report says the file as it was is kept, if it was copied. */
    private static String keptAs(Path copy) {
        return copy == null ? "" : "; the file as it was is kept as " + copy;
    }

    /** A free name in {@code lost/} for {@code p}, creating the directory if needed. */
    private Path lostTarget(Path p) throws IOException {
        Path lost = layout.lostDir();
        if (!fs.exists(lost)) {
            fs.createDirectories(lost);
            fs.syncDirectory(layout.dir());
        }
        Path target = lost.resolve(p.getFileName());
        for (int i = 1; fs.exists(target); i++) {
            target = lost.resolve(p.getFileName() + "." + i);
        }
        return target;
    }

    private void moveToLost(Path p, String reason, Action.Kind kind) throws IOException {
        if (readOnly) {
            act(kind, p, reason);
            return;
        }
        Path target = lostTarget(p);
        fs.rename(p, target);
        fs.syncDirectory(target.getParent());
        fs.syncDirectory(p.getParent());
        act(kind, p, reason + "; now " + target);
    }

    /** Deletes {@code p}, unless this recovery only reports what it would do. */
    private void delete(Path p) throws IOException {
        if (!readOnly) {
            fs.delete(p);
        }
    }

    private void act(Action.Kind kind, Path file, String reason) {
        Action a = new Action(kind, file.toString(), !readOnly ? reason : besideWriter ? reason + "; left as it is"
                + " (read-only open beside the writer that has the database open: likely its work in progress)"
                : reason + "; left as it is (read-only open)");
        actions.add(a);
        // Logged once, in the report's summary; or by close, if the open fails before it.
        LOG.debug("recovery: {}", a);
    }

    private void step(String name) {
        long now = System.nanoTime();
        steps.add(new RecoveryReport.Step(name, Duration.ofNanos(now - stepStart)));
        stepStart = now;
    }
}
