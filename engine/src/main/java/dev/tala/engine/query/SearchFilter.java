package dev.tala.engine.query;

import dev.tala.core.model.Intent;
import dev.tala.core.model.Status;
import java.util.Objects;
import java.util.Set;

/**
 * Which intents a similarity search may return: a timestamp range [from, to), a set of
 * statuses, and a minimum confidence. {@link #ALL} lets everything through.
 */
public record SearchFilter(long fromTimestamp, long toTimestamp, Set<Status> statuses, float minConfidence) {
    /** Declared before {@link #ALL}, whose construction reads it. */
    private static final Set<Status> EVERY_STATUS = Set.of(Status.values());
    public static final SearchFilter ALL = new SearchFilter(0, Long.MAX_VALUE, EVERY_STATUS, 0f);

    /**
     * An empty {@code statuses} means every status, as in {@link #withStatuses} (and as an empty
     * relation set means every relation in a traversal): a filter that no intent can pass is
     * never what was meant.
     */
    public SearchFilter {
        Objects.requireNonNull(statuses, "statuses");
        for (Status status : statuses) {
            Objects.requireNonNull(status, "statuses holds null");
        }
        statuses = statuses.isEmpty() ? EVERY_STATUS : Set.copyOf(statuses);
        TimeRangeScan.requireOrdered(fromTimestamp, toTimestamp);
        // No intent has a negative timestamp: a range from below 0 starts at 0, as a scan's does.
        fromTimestamp = Math.max(0, fromTimestamp);
        toTimestamp = Math.max(0, toTimestamp);
        if (!(minConfidence >= 0 && minConfidence <= 1)) {
            throw new IllegalArgumentException("the minimum confidence must be 0 to 1, got " + minConfidence);
        }
    }

    public SearchFilter withTimeRange(long from, long to) {
        return new SearchFilter(from, to, statuses, minConfidence);
    }

    public SearchFilter withStatuses(Set<Status> only) {
        return new SearchFilter(fromTimestamp, toTimestamp, only, minConfidence);
    }

    public SearchFilter withMinConfidence(float min) {
        return new SearchFilter(fromTimestamp, toTimestamp, statuses, min);
    }

    public boolean accepts(long timestamp, Status status, float confidence) {
        return timestamp >= fromTimestamp && timestamp < toTimestamp && statuses.contains(status)
                && confidence >= minConfidence;
    }

    public boolean accepts(Intent i) {
        return accepts(i.timestampNs(), i.status(), i.confidence());
    }

    /** False when no intent in [min, max] can pass the time range. */
    public boolean overlaps(long minTimestamp, long maxTimestamp) {
        return maxTimestamp >= fromTimestamp && minTimestamp < toTimestamp;
    }
}
