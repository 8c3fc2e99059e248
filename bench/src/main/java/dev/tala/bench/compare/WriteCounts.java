package dev.tala.bench.compare;

/**
 * What one store wrote during an ingest, by its own counters: the bytes its user handed it, and
 * the bytes it wrote to sorted files by flushing and by compacting. {@code ownFigure} is the
 * store's own write-amplification figure as it reports it, quoted as printed.
 */
public record WriteCounts(long userBytes, long walBytes, long flushBytes, long compactionBytes, String ownFigure) {
    /** Bytes written to sorted files (flush plus compaction) per user byte. */
    public double writeAmplification() {
        return userBytes == 0 ? 0 : (double) (flushBytes + compactionBytes) / userBytes;
    }

    /** The same, with the WAL counted too. */
    public double writeAmplificationWithWal() {
        return userBytes == 0 ? 0 : (double) (walBytes + flushBytes + compactionBytes) / userBytes;
    }
}
