package dev.tala.engine;

/**
 * What an operator reads about a running database ({@code tala stats}). Counters are since this
 * open; {@code intents} is the exact number of live intents at the moment of the call.
 * {@code writeAmplification} is the bytes written to segments (by flushes and compactions) per
 * byte logged in the WAL; {@code pendingCompactionBytes} is the input size of the compaction
 * the policy would run next. {@code walFiles} and {@code walBytes} count the numbered WAL files;
 * {@code walFreeFiles} are retired ones zero-filled and waiting for reuse, and
 * {@code walFilesReused} counts rotations that took one instead of creating a file.
 * {@code walForceMicros} is the time spent forcing the WAL: per force, the disk's sync latency.
 * {@code compactionMoves} counts the compactions (among {@code compactions}) that kept their
 * inputs as they were, reading and writing nothing.
 */
public record DbStats(
        long intents,
        int segments,
        long segmentBytes,
        int level0Segments,
        long memtableBytes,
        int frozenMemtables,
        int walFiles,
        long walBytes,
        long lastSequence,
        long writes,
        long writeStalls,
        long writeStallMillis,
        long flushes,
        long flushBytes,
        long compactions,
        long compactionMoves,
        long compactionBytesRead,
        long compactionBytesWritten,
        long pendingCompactionBytes,
        double writeAmplification,
        long walRecords,
        long walBytesLogged,
        long walForces,
        long walForceMicros,
        long walGroupWrites,
        long walFilesReused,
        int walFreeFiles,
        boolean failed) {
}
