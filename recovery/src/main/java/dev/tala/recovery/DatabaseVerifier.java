package dev.tala.recovery;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.core.error.UnsupportedFormatException;
import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ReadOnlyFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.recovery.VerifyReport.Problem;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.recovery.manifest.ManifestState;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.format.TbfFormat;
import dev.tala.wal.ReplayReport;
import dev.tala.wal.WalHoleException;
import dev.tala.wal.WalRecoveryMode;
import dev.tala.wal.WalReplayer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Checks every checksum of every live file: the MANIFEST, each segment it lists (every region),
 * and the WAL files not yet flushed. Read-only: it works through a {@link ReadOnlyFileLayer} and
 * takes the directory's shared lock, which keeps a writer from changing the files while they are
 * read and lets read-only opens run beside it. Damage is collected, not thrown, so one run lists it all.
 */
public final class DatabaseVerifier {
    private DatabaseVerifier() {
    }

    public static VerifyReport verify(FileLayer fs, DatabaseLayout layout) {
        return verify(fs, layout, OptionalInt.empty());
    }

    /**
     * Also checks that every listed segment and every WAL put has the database's embedding
     * {@code dimension} (from OPTIONS, which this module does not read), as an open does.
     */
    public static VerifyReport verify(FileLayer fs, DatabaseLayout layout, OptionalInt dimension) {
        FileLayer readOnly = new ReadOnlyFileLayer(fs);
        try (DirectoryLock lock = readOnly.lockShared(layout.lockFile())) {
            return verifyLocked(readOnly, layout, dimension);
        } catch (IOException e) {
            throw new StorageException("cannot verify " + layout.dir(), e);
        }
    }

    private static VerifyReport verifyLocked(FileLayer fs, DatabaseLayout layout, OptionalInt dimension)
            throws IOException {
        Findings found = new Findings(fs);
        ManifestReader.Result manifest;
        try {
            manifest = readManifest(fs, layout, found);
        } catch (CorruptionException e) {
            // Without the MANIFEST nothing says which segments and WAL files are live.
            found.add(new Problem(e.file(), e.offset(), e.what() + (fs.exists(layout.manifestFile()) ? ""
                    : " (every open refuses this)")));
            return found.report();
        }
        for (Path dir : DatabaseRecovery.filesWhereDirectoriesBelong(fs, layout)) {
            found.add(new Problem(dir.toString(), 0, "not a directory but a file (every open refuses this)"));
        }
        ManifestState state = manifest.state();
        ListedSegments listed = checkListedSegments(fs, layout, state, dimension, found);
        // What the WAL holds decides what the open does with unlisted segments, and what they
        // show decides what the MANIFEST's torn tail was: listed first all the same, read first.
        WalVerdict wal = checkWal(fs, layout, state, dimension, found);
        boolean torn = manifest.tornTailBytes() > 0;
        boolean editLost = judgeUnlistedSegments(fs, layout, state, listed, wal, torn, found);
        if (torn) {
            found.addFirst(tornEdit(layout, manifest, listed.missing(), editLost));
        }
        return found.report();
    }

    /** The problems found so far, and how many files and bytes were read. */
    private static final class Findings {
        private final FileLayer fs;
        private final List<Problem> problems = new ArrayList<>();
        private int files;
        private long bytes;

        Findings(FileLayer fs) {
            this.fs = fs;
        }

        void checked(Path file) throws IOException {
            files++;
            bytes += fs.size(file);
        }

        void add(Problem problem) {
            problems.add(problem);
        }

        void addFirst(Problem problem) {
            problems.addFirst(problem);
        }

        /** Puts {@code problem} in place of what was said of the same file and offset, if anything was. */
        void replaceAtSamePlace(Problem problem) {
            for (int i = 0; i < problems.size(); i++) {
                Problem p = problems.get(i);
                if (p.file().equals(problem.file()) && p.offset() == problem.offset()) {
                    problems.set(i, problem);
                    return;
                }
            }
            problems.add(problem);
        }

        boolean says(String what) {
            return problems.stream().anyMatch(p -> p.what().equals(what));
        }

        VerifyReport report() {
            return new VerifyReport(List.copyOf(problems), files, bytes);
        }
    }

    // ---- MANIFEST ---------------------------------------------------------------------------

    /**
     * What the MANIFEST's torn tail is, once the rest is known: a crash's unfinished edit, which
     * the next open drops, unless what the files show says it was a finished edit damaged since.
     */
    private static Problem tornEdit(DatabaseLayout layout, ManifestReader.Result manifest, List<Long> missing,
                                    boolean editLost) {
        long tornBytes = manifest.tornTailBytes();
        String what;
        if (!missing.isEmpty()) {
            // A compaction deletes its inputs only once its edit is durable: the edit that removed
            // them was finished, and without it every open stops at the first missing one.
            String listedMissing = "without it the MANIFEST lists segments " + missing + ", whose files are missing";
            what = editLost ? "damaged last edit (" + tornBytes + " bytes): " + listedMissing + ", so it was a finished"
                    + " edit (a compaction deletes its inputs only once its edit is durable); an open refuses this in"
                    + " every recovery mode"
                    : "torn last edit (" + tornBytes + " bytes), which an open would drop, but " + listedMissing
                    + "; an open refuses this in every recovery mode";
        } else if (editLost) {
            // Not a crash's unfinished edit, which the WAL would still cover, but a finished one
            // damaged since: the open that would drop it refuses instead.
            what = "damaged last edit (" + tornBytes + " bytes): what it listed is in no listed segment and no WAL"
                    + " file, so it was a finished edit; a default open refuses this";
        } else {
            what = "torn last edit (" + tornBytes + " bytes); the next open drops it";
        }
        return new Problem(layout.manifestFile().toString(), manifest.validEnd(), what);
    }

    // ---- segments ---------------------------------------------------------------------------

    /**
     * The MANIFEST, or, where a creation was cut short before it was written, the empty one every
     * open reads in its place (a writable open writes it), with that listed as a problem. A
     * MANIFEST missing beside segments is refused ({@link DatabaseRecovery#lostManifest}).
     */
    private static ManifestReader.Result readManifest(FileLayer fs, DatabaseLayout layout, Findings found)
            throws IOException {
        if (fs.exists(layout.manifestFile())) {
            ManifestReader.Result manifest = ManifestReader.read(fs, layout.manifestFile());
            found.checked(layout.manifestFile());
            return manifest;
        }
        CorruptionException lost = DatabaseRecovery.lostManifest(fs, layout);
        if (lost != null) {
            throw lost;
        }
        found.add(new Problem(layout.manifestFile().toString(), 0, "missing: the database's creation was cut short"
                + " before its MANIFEST was written; the next writable open writes an empty one"));
        return new ManifestReader.Result(ManifestState.EMPTY, 0, 0, 0);
    }

    /**
     * What the check of the listed segments found that decides the rest: the ids of those that
     * are missing, and whether every open refuses one of them (missing, or one it cannot open,
     * or whose header names another segment) while it opens them, before it judges unlisted ones.
     */
    private record ListedSegments(List<Long> missing, boolean refused) {
    }

    /** Checks every segment the MANIFEST lists, every region of it, and what an open checks of it besides. */
    private static ListedSegments checkListedSegments(FileLayer fs, DatabaseLayout layout, ManifestState state,
                                                      OptionalInt dimension, Findings found) throws IOException {
        // Every open refuses a listed segment that is missing (DatabaseRecovery.openListedSegments),
        // before it deletes or moves anything.
        List<Long> missing = new ArrayList<>();
        boolean refused = false;
        for (long id : state.segments().keySet()) {
            Path p = layout.segmentFile(id);
            if (!fs.exists(p)) {
                missing.add(id);
                found.add(new Problem(p.toString(), 0, "listed in the MANIFEST but missing (an open refuses this"
                        + " in every recovery mode)"));
                continue;
            }
            found.checked(p);
            refused |= checkSegment(fs, p, layout.manifestFile(), state.segments().get(id), dimension, found);
        }
        return new ListedSegments(List.copyOf(missing), refused || !missing.isEmpty());
    }

    /**
     * Checks one listed segment; returns whether every open refuses it where it opens the listed
     * segments (DatabaseRecovery.openListedSegments): it cannot be opened, its header names
     * another segment, or it is not the file the MANIFEST describes. (A dimension OPTIONS does not give is refused later, by DatabaseOpener.)
     */
    private static boolean checkSegment(FileLayer fs, Path p, Path manifest, SegmentMeta listed, OptionalInt dimension,
                                        Findings found) {
        try (SegmentReader reader = SegmentReader.open(fs, p)) {
            // What an open checks before it reads a row (DatabaseRecovery, DatabaseOpener).
            CorruptionException refusal = ListedSegmentCheck.refusal(manifest, listed, reader);
            if (refusal != null) {
                found.add(new Problem(refusal.file(), refusal.offset(), refusal.what() + " (an open refuses this)"));
            }
            boolean refused = refusal != null;
            int stored = reader.dimension();
            if (dimension.isPresent() && stored != dimension.getAsInt()) {
                found.add(new Problem(p.toString(), TbfFormat.H_EMBEDDING_DIM, "embedding dimension " + stored
                        + ", but OPTIONS says " + dimension.getAsInt() + " (an open refuses this)"));
            }
            for (CorruptionException e : reader.verifyAll()) {
                found.add(new Problem(e.file(), e.offset(), e.what()));
            }
            return refused;
        } catch (CorruptionException e) {
            found.add(new Problem(e.file(), e.offset(), e.what()));
        } catch (UnsupportedFormatException e) {
            found.add(new Problem(e.file(), 0, e.getMessage()));
        } catch (IOException e) {
            // One unreadable file (permissions, a failing disk) is a finding; the others are still checked.
            found.add(new Problem(p.toString(), 0, "cannot be read: " + StorageException.describe(e)));
        }
        // What SegmentReader.open throws here, an open's own SegmentReader.open throws too.
        return true;
    }

    /**
     * Says what the next open does with each segment file the MANIFEST does not list (nor names
     * as obsolete); returns whether one shows that a lost MANIFEST edit listed it.
     */
    private static boolean judgeUnlistedSegments(FileLayer fs, DatabaseLayout layout, ManifestState state,
                                                 ListedSegments listed, WalVerdict wal, boolean torn, Findings found)
            throws IOException {
        // Only an unlisted segment holding what is missing shows the edit was a finished one: a
        // hole alone may have another cause (a WAL file removed by hand).
        boolean editLost = false;
        for (Path p : fs.list(layout.segmentDir())) {
            OptionalLong id = DatabaseLayout.segmentId(p);
            if (id.isEmpty() || state.segments().containsKey(id.getAsLong())
                    || state.obsolete().contains(id.getAsLong())) {
                continue;
            }
            Verdict verdict = listed.refused() ? leftInPlace(fs, p, listed.missing(), torn)
                    : unlistedVerdict(fs, p, wal.reached(), wal.hole());
            editLost |= verdict.listedByALostEdit();
            found.add(new Problem(p.toString(), 0, verdict.what()));
        }
        return editLost;
    }

    /** What the next open does with an unlisted segment, and whether a lost MANIFEST edit listed it. */
    private record Verdict(String what, boolean listedByALostEdit) {
    }

    /**
     * An unlisted segment when every open refuses a segment the MANIFEST lists, which it does
     * before it deletes or moves any file. When listed segments are {@code missing}, a complete
     * one beside a {@code torn} edit is most likely what that edit listed (a compaction's output,
     * whose inputs are the missing ones).
     */
    private static Verdict leftInPlace(FileLayer fs, Path segment, List<Long> missing, boolean torn) {
        String what = "not listed in the MANIFEST, and left in place: an open refuses this database before it judges"
                + " unlisted segments, since " + (missing.isEmpty() ? "it refuses a segment it lists"
                : "segments it lists are missing");
        boolean complete;
        try {
            complete = UnlistedSegments.whyIncomplete(fs, segment) == null;
        } catch (IOException e) {
            return new Verdict(what + "; it cannot be read: " + StorageException.describe(e), false);
        }
        return complete && torn && !missing.isEmpty() ? new Verdict(what + "; the damaged last edit may be the one that listed it", true)
                : new Verdict(what, false);
    }

    /** What the next open does with a segment the MANIFEST does not list (docs/RECOVERY.md, step 4). */
    private static Verdict unlistedVerdict(FileLayer fs, Path segment, long reached, WalHoleException hole) {
        String removed = "not listed in the MANIFEST (the next open removes it or moves it to lost/)";
        try {
            if (UnlistedSegments.whyIncomplete(fs, segment) == null) {
                long newest = UnlistedSegments.newestSequence(fs, segment);
                if (newest > reached) {
                    return new Verdict("not listed in the MANIFEST, and holds sequences up to " + newest + " that"
                            + " neither the MANIFEST nor the WAL reaches (" + reached + "): the edit that listed it is"
                            + " damaged; a default open refuses this", true);
                }
                if (hole != null && newest >= hole.firstMissing()) {
                    return new Verdict("not listed in the MANIFEST, and holds sequences up to " + newest + ", where "
                            + hole.firstMissing() + ".." + hole.lastMissing() + " are in no listed segment and no WAL"
                            + " file: the edit that listed it is damaged; a default open refuses this", true);
                }
            }
            return new Verdict(removed, false);
        } catch (IOException e) {
            return new Verdict(removed + "; it cannot be read: " + StorageException.describe(e), false);
        }
    }

    // ---- WAL --------------------------------------------------------------------------------

    /**
     * What the WAL tells of unlisted segments: the highest sequence number it holds (or the
     * MANIFEST's last, if higher), and the hole a default open refuses at, if any.
     */
    private record WalVerdict(long reached, WalHoleException hole) {
    }

    /** Checks the WAL files not yet flushed, record by record, and adds what a default open says of them. */
    private static WalVerdict checkWal(FileLayer fs, DatabaseLayout layout, ManifestState state,
                                       OptionalInt dimension, Findings found) throws IOException {
        List<Path> wal = WalReplayer.walFiles(fs, layout.walDir(), state.logNumber());
        for (Path p : wal) {
            found.checked(p);
        }
        // Not among the files replayed, yet every open refuses the database for it (DatabaseRecovery).
        for (Path p : fs.list(layout.walDir())) {
            CorruptionException pastLimit;
            try {
                pastLimit = DatabaseRecovery.walNamedPastLimit(fs, layout, p);
            } catch (IOException e) {
                found.add(new Problem(p.toString(), 0, "cannot be read: " + StorageException.describe(e)));
                continue;
            }
            if (pastLimit != null) {
                found.checked(p);
                found.add(new Problem(pastLimit.file(), pastLimit.offset(), pastLimit.what() + " (every open refuses this)"));
            }
        }
        long reached = Math.max(state.lastSequence(), listWalDamage(fs, layout, wal, state, dimension, found));
        return new WalVerdict(reached, addDefaultOpenVerdict(fs, layout, wal, state, found));
    }

    /**
     * Replays {@code wal} skipping damage, so that one run lists all of it: each damaged record,
     * torn tail or file without an intact header, and the first put of another dimension than
     * OPTIONS gives. Returns the last sequence number replayed (the MANIFEST's if it failed).
     */
    private static long listWalDamage(FileLayer fs, DatabaseLayout layout, List<Path> wal, ManifestState state,
                                      OptionalInt dimension, Findings found) {
        try {
            // Only the first: an open refuses at it, and a changed dimension would list every record.
            List<Problem> wrongDimension = new ArrayList<>();
            ReplayReport replay = WalReplayer.replayLocated(fs, wal, state.lastSequence(),
                    WalRecoveryMode.SKIP_CORRUPTED, (r, fileNumber, file, offset) -> {
                        OptionalInt other = dimension.isPresent() ? r.otherDimension(dimension.getAsInt())
                                : OptionalInt.empty();
                        if (wrongDimension.isEmpty() && other.isPresent()) {
                            wrongDimension.add(new Problem(file.toString(), offset, "holds an intent of embedding"
                                    + " dimension " + other.getAsInt() + " (sequence " + r.firstSequence() + "), but"
                                    + " OPTIONS says " + dimension.getAsInt() + " (an open refuses this)"));
                        }
                    });
            wrongDimension.forEach(found::add);
            for (ReplayReport.FileReport f : replay.files()) {
                for (ReplayReport.Skipped s : f.skipped()) {
                    found.add(new Problem(f.file().toString(), s.offset(), s.what()));
                }
                if (f.validEnd() == 0 && (f.droppedTailBytes() > 0 || f.size() == 0)) {
                    // Even a file of 0 bytes: the open removes it and reports it (DatabaseRecovery.cutTail).
                    found.add(new Problem(f.file().toString(), 0, "no intact file header (" + f.size() + " bytes; "
                            + headerlessFate(fs, f.file())));
                } else if (f.droppedTailBytes() > 0) {
                    found.add(new Problem(f.file().toString(), f.validEnd(), "torn tail of " + f.droppedTailBytes()
                            + " bytes (a write cut short by a crash; the next open truncates it)"));
                }
            }
            return replay.lastSequence();
        } catch (TalaException e) {
            found.add(new Problem(layout.walDir().toString(), 0, e.getMessage()));
            return state.lastSequence();
        }
    }

    /** What the next open does with a WAL file it drops for want of an intact header (DatabaseRecovery.cutTail). */
    private static String headerlessFate(FileLayer fs, Path file) {
        try {
            return DatabaseRecovery.holdsDataPastHeader(fs, file)
                    ? "and more than zeros past it, which no crash leaves): the next open moves the file to lost/"
                    : "a write cut short by a crash): the next open deletes the file";
        } catch (IOException e) {
            return "and it cannot be read: " + StorageException.describe(e) + ")";
        }
    }

    /**
     * Replays {@code wal} as a default open does and adds its refusal, if it refuses; returns the
     * hole it refuses at, if that is why. Skipping forgives what a default open refuses (say, an
     * empty WAL file that is not the newest, or damage at the end of one, which skipping skips
     * and goes past), so the refusal replaces what skipping said of the same place. It alone
     * names a hole: skipping reports one as a skipped range and goes on.
     */
    private static WalHoleException addDefaultOpenVerdict(FileLayer fs, DatabaseLayout layout, List<Path> wal,
                                                          ManifestState state, Findings found) {
        try {
            WalReplayer.replay(fs, wal, state.lastSequence(), WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, r -> { });
            return null;
        } catch (CorruptionException e) {
            found.replaceAtSamePlace(new Problem(e.file(), e.offset(), e.what() + " (a default open refuses this)"));
            return e instanceof WalHoleException hole ? hole : null;
        } catch (TalaException e) {
            if (!found.says(e.getMessage())) {
                found.add(new Problem(layout.walDir().toString(), 0, e.getMessage()));
            }
            return null;
        }
    }
}
