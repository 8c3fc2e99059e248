package dev.tala.wal;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.StorageException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.layout.DatabaseLayout;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replays WAL files in order, handing each intact record newer than a cut-off to a consumer,
 * and deciding by the {@link WalRecoveryMode} what damage means. Reads only: truncating a torn
 * tail or dropping files past a stop point is the recovery procedure's job, driven by the
 * returned {@link ReplayReport}.
 */
public final class WalReplayer {
    private WalReplayer() {
    }

    /** The WAL files in {@code walDir} numbered {@code >= fromNumber}, in order. */
    public static List<Path> walFiles(FileLayer fs, Path walDir, long fromNumber) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path p : fs.list(walDir)) {
            DatabaseLayout.walNumber(p).ifPresent(n -> {
                if (n >= fromNumber) {
                    out.add(p);
                }
            });
        }
        out.sort((a, b) -> Long.compare(DatabaseLayout.walNumber(a).getAsLong(), DatabaseLayout.walNumber(b).getAsLong()));
        return out;
    }

    /**
     * Replays {@code files} (in order) and gives {@code apply} every intact record whose
     * sequence numbers are all above {@code afterSequence}.
     *
     * @throws CorruptionException for damage the mode does not tolerate, naming file and offset
     */
    public static ReplayReport replay(FileLayer fs, List<Path> files, long afterSequence, WalRecoveryMode mode,
                                      Consumer<WalRecord> apply) {
        return replayLocated(fs, files, afterSequence, mode, (record, fileNumber, file, offset) -> apply.accept(record));
    }

    /** Receives a replayed record with where it was read: its WAL file (number and path), and the offset its header starts at. */
    @FunctionalInterface
    public interface LocatedConsumer {
        void accept(WalRecord record, long fileNumber, Path file, long offset);
    }

    /**
     * As {@link #replay(FileLayer, List, long, WalRecoveryMode, Consumer)}, also telling
     * {@code apply} where each record is: its WAL file's number (an engine that splits a long
     * replay into several memtables needs it to know which files each one pins), and the file
     * and offset that a check finding fault with a record's contents (not its checksum) names.
     */
    public static ReplayReport replayLocated(FileLayer fs, List<Path> files, long afterSequence, WalRecoveryMode mode,
                                             LocatedConsumer apply) {
        List<ReplayReport.FileReport> reports = new ArrayList<>();
        Position at = new Position(afterSequence);
        long applied = 0;
        ReplayReport.Stop stop = null;
        for (int i = 0; i < files.size(); i++) {
            Path path = files.get(i);
            long number = DatabaseLayout.walNumber(path).orElseThrow(
                    () -> new IllegalArgumentException(path + " is not named like a WAL file"));
            if (stop != null) {
                reports.add(new ReplayReport.FileReport(path, number, sizeOf(fs, path), 0, 0, 0, 0, null, List.of(), true));
                continue;
            }
            FileReplay r = new FileReplay(path, number, i == files.size() - 1, mode, at, apply);
            try (MappedRegion region = fs.map(path)) {
                r.run(new WalFileScanner(region.segment()));
            } catch (IOException e) {
                throw new StorageException("cannot read " + path, e);
            }
            reports.add(r.report());
            at.previousFile = path;
            at.previousFileEnd = r.validEnd;
            applied += r.applied;
            stop = r.stop;
        }
        return new ReplayReport(mode, List.copyOf(reports), at.lastSequence, applied, stop);
    }

    /** How far replay has got, carried from one file to the next. */
    private static final class Position {
        /** The last sequence number applied (or already in segments before replay began). */
        long lastSequence;
        /** The last sequence number read, applied or not: sequence numbers only grow. */
        long lastSeen;
        /** The file that held the record numbered {@code lastSeen}, and where that record ends. */
        Path lastSeenIn;
        long lastSeenEnd;
        /** The file replayed before the current one, and where its intact prefix ends. */
        Path previousFile;
        long previousFileEnd;
        /**
         * True when skip mode passed over damage since the last intact record, in this file or
         * at the end of the one before: it explains a hole.
         */
        boolean skippedJustBefore;

        Position(long afterSequence) {
            this.lastSequence = afterSequence;
        }
    }

    private static long sizeOf(FileLayer fs, Path p) {
        try {
            return fs.size(p);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The replay of one file; holds its counters while it runs. */
    private static final class FileReplay {
        final Path path;
        final long number;
        final boolean newest;
        final WalRecoveryMode mode;
        final LocatedConsumer apply;
        final List<ReplayReport.Skipped> skipped = new ArrayList<>();
        final Position at;
        long read;
        long applied;
        long validEnd;
        long droppedTail;
        /** Set when the dropped tail held intact records after writes the crash lost; says what it saw. */
        String lostWritesBefore;
        long size;
        /** Where the file's written bytes end (see {@link WalFileScanner#dataEnd}). */
        long dataEnd;
        ReplayReport.Stop stop;

        FileReplay(Path path, long number, boolean newest, WalRecoveryMode mode, Position at, LocatedConsumer apply) {
            this.path = path;
            this.number = number;
            this.newest = newest;
            this.mode = mode;
            this.at = at;
            this.apply = apply;
        }

        void run(WalFileScanner scanner) {
            size = scanner.size();
            dataEnd = size;
            String headerProblem = scanner.checkFileHeader(number);
            long offset;
            if (headerProblem != null) {
                // Only the newest file can have a half-written header: it was being created.
                if (newest && scanner.nextIntactRecordAfter(0) == -1 && mode != WalRecoveryMode.ABSOLUTE_CONSISTENCY) {
                    droppedTail = size;
                    return;
                }
                // Skip mode goes on at the next intact record, as after any damage; the flags of
                // a damaged header are not trusted, so the file's data is taken to end at its size.
                offset = damaged(scanner, 0, headerProblem, true);
            } else {
                dataEnd = scanner.dataEnd();
                offset = WalFormat.FILE_HEADER_BYTES;
                validEnd = offset;
            }
            while (offset >= 0) {
                WalFileScanner.Step step = scanner.stepAt(offset);
                switch (step) {
                    case WalFileScanner.End end -> {
                        return;
                    }
                    case WalFileScanner.Intact intact -> {
                        WalRecord record = intact.record();
                        WalHoleException hole = record.firstSequence() > at.lastSeen
                                ? holeBefore(record.firstSequence(), intact.offset()) : null;
                        if (record.firstSequence() <= at.lastSeen) {
                            offset = onDamage(scanner, intact.offset(), "sequence " + record.firstSequence()
                                    + " does not follow " + at.lastSeen);
                        } else if (hole != null && !onHole(intact.offset(), hole)) {
                            offset = -1;
                        } else {
                            read++;
                            at.skippedJustBefore = false;
                            at.lastSeen = record.lastSequence();
                            at.lastSeenIn = path;
                            at.lastSeenEnd = intact.end();
                            if (record.firstSequence() > at.lastSequence) {
                                apply.accept(record, number, path, intact.offset());
                                applied++;
                                at.lastSequence = record.lastSequence();
                            }
                            offset = intact.end();
                            validEnd = offset;
                        }
                    }
                    case WalFileScanner.Damaged d -> offset = onDamage(scanner, d.offset(), d.what());
                }
            }
        }

        /**
         * The hole before a record starting at {@code first} at {@code offset}, or null when
         * nothing is missing. Every write takes the next sequence numbers, so records are
         * contiguous: a hole means whole records were lost where no checksum can see it (a file
         * cut at a record boundary, or a MANIFEST that lost edits whose WAL files are deleted).
         */
        private WalHoleException holeBefore(long first, long offset) {
            long lastSeen = at.lastSeen;
            if (lastSeen > 0 && first != lastSeen + 1) {
                String missing = "sequences " + (lastSeen + 1) + ".." + (first - 1) + " are missing";
                if (read == 0) {
                    // The previous file ends early: name it, where it ends, as the damaged file.
                    return new WalHoleException(at.lastSeenIn.toString(), at.lastSeenEnd, "the file ends after sequence "
                            + lastSeen + " but the next file, " + path.getFileName() + ", starts at sequence " + first
                            + ": " + missing + " (whole records were cut off the end of this file)", lastSeen + 1,
                            first - 1, false);
                }
                return new WalHoleException(path.toString(), offset, "sequence " + first + " does not follow "
                        + lastSeen + ": " + missing, lastSeen + 1, first - 1, false);
            }
            if (lastSeen == 0 && first > at.lastSequence + 1) {
                String missing = "sequences " + (at.lastSequence + 1) + ".." + (first - 1) + " are in no segment and"
                        + " no WAL file";
                if (at.previousFile != null) {
                    // An earlier file holds no records at all: it is the likelier culprit.
                    return new WalHoleException(at.previousFile.toString(), at.previousFileEnd, "the file holds no"
                            + " records, but the next file, " + path.getFileName() + ", starts at sequence " + first
                            + " and the MANIFEST's last sequence is " + at.lastSequence + ": " + missing,
                            at.lastSequence + 1, first - 1, false);
                }
                return new WalHoleException(path.toString(), offset, "the first record, sequence " + first
                        + ", does not follow the MANIFEST's last sequence " + at.lastSequence + ": " + missing
                        + " (the MANIFEST lost edits, or WAL files are missing)", at.lastSequence + 1, first - 1, true);
            }
            return null;
        }

        /**
         * What a skip or a stop at {@code offset} of this file says of {@code hole}: a report
         * names its own file and offset, so the hole's place is repeated only where it is another
         * (the end of the previous file, which lost the records).
         */
        private String reasonAt(long offset, WalHoleException hole) {
            boolean here = hole.file().equals(path.toString()) && hole.offset() == offset;
            return here ? hole.what() : hole.getMessage();
        }

        /**
         * Handles a hole before an intact record at {@code offset}; returns true to apply the
         * record anyway. A hole is never a torn tail, so only skip mode goes past it, and it
         * reports the hole unless the damage it skipped just before explains it.
         */
        private boolean onHole(long offset, WalHoleException hole) {
            switch (mode) {
                case SKIP_CORRUPTED -> {
                    if (!at.skippedJustBefore) {
                        skipped.add(new ReplayReport.Skipped(offset, 0, reasonAt(offset, hole)));
                    }
                    return true;
                }
                case POINT_IN_TIME -> {
                    stop = new ReplayReport.Stop(path, offset, reasonAt(offset, hole));
                    droppedTail = dataEnd - offset;
                    return false;
                }
                default -> throw hole;
            }
        }

        /** Handles damage at {@code offset}; returns where to continue, or -1 to stop this file. */
        private long onDamage(WalFileScanner scanner, long offset, String what) {
            return damaged(scanner, offset, what, false);
        }

        private long damaged(WalFileScanner scanner, long offset, String what, boolean inHeader) {
            long next = scanner.nextIntactRecordAfter(offset);
            switch (mode) {
                case TOLERATE_CORRUPTED_TAIL -> {
                    // Damage with intact records after it is a torn tail too when it shows writes
                    // lost out of order: nothing after it was covered by a completed force (one
                    // would have made the damaged bytes durable), so nothing after it was
                    // acknowledged in SYNC mode.
                    boolean lostWrites = newest && !inHeader && next >= 0 && scanner.looksLikeLostWrites(offset, next);
                    if (newest && !inHeader && (next == -1 || lostWrites)) {
                        droppedTail = dataEnd - offset;
                        if (lostWrites) {
                            lostWritesBefore = what + ", then zeros where writes were lost, then intact records"
                                    + " from offset " + next;
                        }
                        return -1;
                    }
                    throw corruption(offset, what);
                }
                case ABSOLUTE_CONSISTENCY -> throw corruption(offset, what);
                case POINT_IN_TIME -> {
                    stop = new ReplayReport.Stop(path, offset, what);
                    droppedTail = dataEnd - offset;
                    return -1;
                }
                case SKIP_CORRUPTED -> {
                    if (next == WalFileScanner.UNDECIDED) {
                        skipped.add(new ReplayReport.Skipped(offset, dataEnd - offset, what + "; the rest of the"
                                + " file was not searched for intact records: too many record headers in it pass"
                                + " their checksum"));
                        return -1;
                    }
                    if (next < 0 && (newest || inHeader)) {
                        droppedTail = dataEnd - offset;
                        return -1;
                    }
                    if (next < 0) {
                        // The end of an older file is no torn tail: the records of the files after
                        // it were written after it, so this is damage, skipped and reported like
                        // any other (the file is kept in lost/ and left for the flush to retire),
                        // not cut away as a crash's write.
                        skipped.add(new ReplayReport.Skipped(offset, dataEnd - offset, what
                                + " (not the newest WAL file, so not a torn tail)"));
                        at.skippedJustBefore = true;
                        return -1;
                    }
                    skipped.add(new ReplayReport.Skipped(offset, next - offset, what));
                    at.skippedJustBefore = true;
                    return next;
                }
            }
            throw new AssertionError(mode);
        }

        private CorruptionException corruption(long offset, String what) {
            String where = newest ? "" : " (not the newest WAL file, so not a torn tail)";
            return new CorruptionException(path.toString(), offset, what + where);
        }

        ReplayReport.FileReport report() {
            return new ReplayReport.FileReport(path, number, size, read, applied, validEnd, droppedTail,
                    lostWritesBefore, List.copyOf(skipped), false);
        }
    }
}
