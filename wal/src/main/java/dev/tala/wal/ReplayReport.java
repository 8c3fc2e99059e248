package dev.tala.wal;

import java.nio.file.Path;
import java.util.List;

/**
 * What a WAL replay found and did, file by file: what an operator reads after a recovery, and
 * what the recovery procedure uses to truncate torn tails and drop files past a stop point.
 */
public record ReplayReport(WalRecoveryMode mode, List<FileReport> files, long lastSequence,
                           long recordsApplied, Stop stoppedAt) {

    /**
     * One WAL file: records seen and applied, where its intact prefix ends ({@code validEnd}),
     * how many bytes after it were dropped as a torn tail, and the damaged ranges skipped.
     * {@code lostWrites} is null unless the dropped tail held intact records after writes the
     * crash lost out of order; then it says what replay saw there.
     */
    public record FileReport(Path file, long fileNumber, long size, long recordsRead, long recordsApplied,
                             long validEnd, long droppedTailBytes, String lostWrites, List<Skipped> skipped,
                             boolean ignored) {
        /** True when the file ends in bytes replay did not use, which recovery should cut off. */
        public boolean hasTornTail() {
            return droppedTailBytes > 0;
        }
    }

    /** A damaged range skipped in {@link WalRecoveryMode#SKIP_CORRUPTED} mode. */
    public record Skipped(long offset, long length, String what) {
    }

    /** Where point-in-time recovery stopped: nothing at or after this place was applied. */
    public record Stop(Path file, long offset, String what) {
    }

    public long droppedTailBytes() {
        return files.stream().mapToLong(FileReport::droppedTailBytes).sum();
    }

    public long skippedRecords() {
        return files.stream().mapToLong(f -> f.skipped().size()).sum();
    }

    /** True when replay used every byte of every file. */
    public boolean isClean() {
        return stoppedAt == null && droppedTailBytes() == 0 && skippedRecords() == 0;
    }
}
