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
        List<Problem> problems = new ArrayList<>();
        int files = 0;
        long bytes = 0;
        ManifestState state;
        Problem tornEdit = null;
        long tornBytes = 0;
        try {
            ManifestReader.Result m = ManifestReader.read(fs, layout.manifestFile());
            files++;
            bytes += fs.size(layout.manifestFile());
            if (m.tornTailBytes() > 0) {
                tornBytes = m.tornTailBytes();
                tornEdit = new Problem(layout.manifestFile().toString(), m.validEnd(),
                        "torn last edit (" + m.tornTailBytes() + " bytes); the next open drops it");
                problems.add(tornEdit);
            }
            state = m.state();
        } catch (CorruptionException e) {
            problems.add(new Problem(e.file(), e.offset(), e.what()));
            return new VerifyReport(problems, files, bytes);
        }

        List<Path> unlisted = new ArrayList<>();
        for (Path p : fs.list(layout.segmentDir())) {
            OptionalLong id = DatabaseLayout.segmentId(p);
            if (id.isPresent() && !state.segments().containsKey(id.getAsLong())
                    && !state.obsolete().contains(id.getAsLong())) {
                unlisted.add(p);
            }
        }
        // Every open refuses a listed segment that is missing (DatabaseRecovery.openListedSegments),
        // before it deletes or moves anything.
        List<Long> missing = new ArrayList<>();
        for (long id : state.segments().keySet()) {
            Path p = layout.segmentFile(id);
            if (!fs.exists(p)) {
                missing.add(id);
                problems.add(new Problem(p.toString(), 0, "listed in the MANIFEST but missing (an open refuses this"
                        + " in every recovery mode)"));
                continue;
            }
            files++;
            bytes += fs.size(p);
            try (SegmentReader reader = SegmentReader.open(fs, p)) {
                // What an open checks before it reads a row (DatabaseRecovery, DatabaseOpener).
                CorruptionException misnamed = DatabaseRecovery.misnamed(reader, id);
                if (misnamed != null) {
                    problems.add(new Problem(misnamed.file(), misnamed.offset(), misnamed.what()
                            + " (an open refuses this)"));
                }
                if (dimension.isPresent() && reader.dimension() != dimension.getAsInt()) {
                    problems.add(new Problem(p.toString(), TbfFormat.H_EMBEDDING_DIM, "embedding dimension " + reader.dimension()
                            + ", but OPTIONS says " + dimension.getAsInt() + " (an open refuses this)"));
                }
                for (CorruptionException e : reader.verifyAll()) {
                    problems.add(new Problem(e.file(), e.offset(), e.what()));
                }
            } catch (CorruptionException e) {
                problems.add(new Problem(e.file(), e.offset(), e.what()));
            } catch (UnsupportedFormatException e) {
                problems.add(new Problem(e.file(), 0, e.getMessage()));
            } catch (IOException e) {
                // One unreadable file (permissions, a failing disk) is a finding; the others are still checked.
                problems.add(new Problem(p.toString(), 0, "cannot be read: " + StorageException.describe(e)));
            }
        }

        List<Path> wal = WalReplayer.walFiles(fs, layout.walDir(), state.logNumber());
        for (Path p : wal) {
            files++;
            bytes += fs.size(p);
        }
        long reached = state.lastSequence();
        // Sequences in no listed segment and no WAL file: an unlisted segment holding them is the
        // data a damaged MANIFEST edit listed, which a default open refuses to drop. Only the
        // default open's replay below names one: skipping reports a hole as a skipped range and goes on.
        WalHoleException hole = null;
        try {
            // Only the first: an open refuses at it, and a changed dimension would list every record.
            List<Problem> wrongDimension = new ArrayList<>();
            ReplayReport replay = WalReplayer.replayLocated(fs, wal, state.lastSequence(),
                    WalRecoveryMode.SKIP_CORRUPTED, (r, file, offset) -> {
                        OptionalInt other = dimension.isPresent() ? r.otherDimension(dimension.getAsInt())
                                : OptionalInt.empty();
                        if (wrongDimension.isEmpty() && other.isPresent()) {
                            wrongDimension.add(new Problem(file.toString(), offset, "holds an intent of embedding"
                                    + " dimension " + other.getAsInt() + " (sequence " + r.firstSequence() + "), but"
                                    + " OPTIONS says " + dimension.getAsInt() + " (an open refuses this)"));
                        }
                    });
            problems.addAll(wrongDimension);
            reached = Math.max(reached, replay.lastSequence());
            for (ReplayReport.FileReport f : replay.files()) {
                for (ReplayReport.Skipped s : f.skipped()) {
                    problems.add(new Problem(f.file().toString(), s.offset(), s.what()));
                }
                if (f.validEnd() == 0 && (f.droppedTailBytes() > 0 || f.size() == 0)) {
                    // Even a file of 0 bytes: the open deletes it and reports it (DatabaseRecovery.cutTail).
                    problems.add(new Problem(f.file().toString(), 0, "no intact file header (" + f.size()
                            + " bytes; a write cut short by a crash): the next open deletes the file"));
                } else if (f.droppedTailBytes() > 0) {
                    problems.add(new Problem(f.file().toString(), f.validEnd(), "torn tail of " + f.droppedTailBytes()
                            + " bytes (a write cut short by a crash; the next open truncates it)"));
                }
            }
        } catch (TalaException e) {
            problems.add(new Problem(layout.walDir().toString(), 0, e.getMessage()));
        }
        // Skipping lists every damaged record but forgives what a default open refuses (say, an
        // empty WAL file that is not the newest, or damage at the end of one, which skipping takes
        // for a torn tail), so the open's own verdict replaces what skipping said of that place.
        try {
            WalReplayer.replay(fs, wal, state.lastSequence(), WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, r -> { });
        } catch (CorruptionException e) {
            hole = e instanceof WalHoleException h ? h : null;
            Problem refused = new Problem(e.file(), e.offset(), e.what() + " (a default open refuses this)");
            int same = problems.indexOf(problems.stream().filter(p -> p.file().equals(e.file())
                    && p.offset() == e.offset()).findFirst().orElse(null));
            if (same >= 0) {
                problems.set(same, refused);
            } else {
                problems.add(refused);
            }
        } catch (TalaException e) {
            if (problems.stream().noneMatch(p -> p.what().equals(e.getMessage()))) {
                problems.add(new Problem(layout.walDir().toString(), 0, e.getMessage()));
            }
        }
        // Only an unlisted segment holding what is missing shows the edit was a finished one: a
        // hole alone may have another cause (a WAL file removed by hand).
        boolean editLost = false;
        for (Path p : unlisted) {
            Verdict verdict = missing.isEmpty() ? unlistedVerdict(fs, p, reached, hole)
                    : leftInPlace(fs, p, tornEdit != null);
            editLost |= verdict.listedByALostEdit();
            problems.add(new Problem(p.toString(), 0, verdict.what()));
        }
        if (tornEdit != null && !missing.isEmpty()) {
            // A compaction deletes its inputs only once its edit is durable: the edit that removed
            // them was finished, and without it every open stops at the first missing one.
            String listedMissing = "without it the MANIFEST lists segments " + missing + ", whose files are missing";
            problems.set(problems.indexOf(tornEdit), new Problem(tornEdit.file(), tornEdit.offset(), editLost
                    ? "damaged last edit (" + tornBytes + " bytes): " + listedMissing + ", so it was a finished edit (a"
                    + " compaction deletes its inputs only once its edit is durable); an open refuses this in every"
                    + " recovery mode"
                    : "torn last edit (" + tornBytes + " bytes), which an open would drop, but " + listedMissing
                    + "; an open refuses this in every recovery mode"));
        } else if (tornEdit != null && editLost) {
            // Not a crash's unfinished edit, which the WAL would still cover, but a finished one
            // damaged since: the open that would drop it refuses instead.
            problems.set(problems.indexOf(tornEdit), new Problem(tornEdit.file(), tornEdit.offset(),
                    "damaged last edit (" + tornBytes + " bytes): what it listed is in no listed segment and no WAL"
                    + " file, so it was a finished edit; a default open refuses this"));
        }
        return new VerifyReport(List.copyOf(problems), files, bytes);
    }

    /** What the next open does with an unlisted segment, and whether a lost MANIFEST edit listed it. */
    private record Verdict(String what, boolean listedByALostEdit) {
    }

    /**
     * An unlisted segment when segments the MANIFEST lists are missing: every open refuses then,
     * before it deletes or moves any file. A complete one beside a {@code torn} edit is most
     * likely what that edit listed (a compaction's output, whose inputs are the missing ones).
     */
    private static Verdict leftInPlace(FileLayer fs, Path segment, boolean torn) {
        String what = "not listed in the MANIFEST, and left in place: an open refuses this database before it judges"
                + " unlisted segments, since segments it lists are missing";
        boolean complete;
        try {
            complete = UnlistedSegments.whyIncomplete(fs, segment) == null;
        } catch (IOException e) {
            return new Verdict(what + "; it cannot be read: " + StorageException.describe(e), false);
        }
        return complete && torn ? new Verdict(what + "; the damaged last edit may be the one that listed it", true)
                : new Verdict(what, complete);
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
}
