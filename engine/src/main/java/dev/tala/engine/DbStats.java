package dev.tala.engine;

/**
 * What an operator reads about a running database ({@code tala stats}). Counters are since this
 * open; {@code intents} is the exact number of live intents at the moment of the call.
 */
public record DbStats(
        long intents,
        int segments,
        long segmentBytes,
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
        long walRecords,
        long walForces,
        long walGroupWrites,
        boolean failed) {
}
