package dev.tala.compaction;

/**
 * What a policy did to a simulated workload.
 *
 * @param writeAmplification      (bytes flushed + bytes written by compactions) / bytes flushed
 * @param finalSpaceAmplification bytes on disk / bytes of live data (newest versions of undeleted
 *                                ids), after the last flush and its compactions
 * @param maxSpaceAmplification   the largest such ratio seen after a flush's compactions settled
 * @param meanSpaceAmplification  its mean over all flushes
 * @param peakTransientSpaceAmplification the largest ratio while a compaction's output existed
 *                                beside its inputs (the disk a compaction needs at its worst)
 * @param maxSegments             most live segments at rest (what a point lookup may probe)
 */
public record SimulationResult(String policy, int flushes, long bytesFlushed, long bytesCompacted, int compactions,
                               double writeAmplification, double finalSpaceAmplification,
                               double maxSpaceAmplification, double meanSpaceAmplification,
                               double peakTransientSpaceAmplification, int maxSegments, int finalSegments) {
    /** One line for reports. */
    public String summary() {
        return String.format(java.util.Locale.ROOT,
                "%-8s flushes=%d compactions=%d W-amp=%.2f S-amp(final)=%.3f S-amp(max)=%.3f S-amp(mean)=%.3f"
                        + " S-amp(peak during compaction)=%.3f segments(max)=%d segments(final)=%d",
                policy, flushes, compactions, writeAmplification, finalSpaceAmplification, maxSpaceAmplification,
                meanSpaceAmplification, peakTransientSpaceAmplification, maxSegments, finalSegments);
    }
}
