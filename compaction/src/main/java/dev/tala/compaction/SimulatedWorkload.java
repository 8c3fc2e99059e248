package dev.tala.compaction;

/**
 * A stream of flushes for {@link AmplificationSimulator}: how many, how many operations each,
 * what a row costs on disk, and the intent-like mix of operations. Ids are time-ordered (each
 * new intent gets the next id), updates rewrite recent ids (an outcome attached shortly after the
 * intent), deletes remove random older ids, or recent ones (a queue's consumer).
 *
 * @param flushes             number of flushes
 * @param operationsPerFlush  operations per flush (a flush holds one version per id, so fewer rows
 *                            when an id is written twice within it)
 * @param putBytes            on-disk bytes of one put row
 * @param tombstoneBytes      on-disk bytes of one tombstone row
 * @param updateFraction      fraction of operations that rewrite a recent id
 * @param deleteFraction      fraction of operations that delete an id written before
 * @param updateWindowFlushes updates pick ids created within this many most recent flushes
 * @param seed                seed of the operation mix
 * @param deleteWindowFlushes deletes pick ids created within this many most recent flushes; 0:
 *                            any id written before
 */
public record SimulatedWorkload(int flushes, int operationsPerFlush, long putBytes, long tombstoneBytes,
                                double updateFraction, double deleteFraction, int updateWindowFlushes, long seed,
                                int deleteWindowFlushes) {
    /** Deletes of any older id. */
    public SimulatedWorkload(int flushes, int operationsPerFlush, long putBytes, long tombstoneBytes,
                             double updateFraction, double deleteFraction, int updateWindowFlushes, long seed) {
        this(flushes, operationsPerFlush, putBytes, tombstoneBytes, updateFraction, deleteFraction,
                updateWindowFlushes, seed, 0);
    }

    public SimulatedWorkload {
        if (flushes < 0 || operationsPerFlush < 1 || putBytes < 1 || tombstoneBytes < 1) {
            throw new IllegalArgumentException("impossible workload: " + flushes + " flushes of "
                    + operationsPerFlush + " operations, " + putBytes + "/" + tombstoneBytes + " bytes per row");
        }
        if (!(updateFraction >= 0) || !(deleteFraction >= 0) || updateFraction + deleteFraction > 1) {
            throw new IllegalArgumentException("update and delete fractions must be >= 0 and sum to at most 1");
        }
        if (updateWindowFlushes < 1) {
            throw new IllegalArgumentException("updateWindowFlushes must be at least 1");
        }
        if (deleteWindowFlushes < 0) {
            throw new IllegalArgumentException("deleteWindowFlushes must be at least 0");
        }
    }

    /** Equal flushes of new intents only: no updates, no deletes (so tombstoneBytes is unused). */
    public static SimulatedWorkload appendOnly(int flushes, int operationsPerFlush, long putBytes) {
        return new SimulatedWorkload(flushes, operationsPerFlush, putBytes, putBytes, 0, 0, 1, 0);
    }
}
