package dev.tala.compaction;

/**
 * Every tunable number of the compaction module, in one place. Policies and jobs take their
 * settings from records whose {@code defaults()} read these, so a change here changes the
 * behaviour everywhere (and docs/COMPACTION.md quotes these values).
 */
public final class CompactionDefaults {
    private CompactionDefaults() {
    }

    // ---- job ----------------------------------------------------------------------------------

    /**
     * Target size of one compaction output. It also bounds the job's memory: the rows of one
     * output are buffered before they are written, so the heap needed is about this much
     * (more for int8 outputs, whose buffered rows still hold f32 vectors).
     */
    public static final long TARGET_OUTPUT_BYTES = 64L << 20;

    /** 0 means writes are not throttled. */
    public static final long UNLIMITED_BYTES_PER_SECOND = 0;

    /**
     * How much a rate limiter lets through at once, in seconds of its rate: enough to absorb
     * one writer buffer without sleeping, small enough that a burst does not defeat the limit.
     */
    public static final double RATE_LIMIT_BURST_SECONDS = 0.1;

    /**
     * A compaction whose inputs share no id is done as a move (no bytes rewritten) only when
     * every input holds at least the target output size divided by this; otherwise it merges,
     * so that small segments do not pile up.
     */
    public static final int MOVE_MIN_INPUT_FRACTION = 4;

    /** The job reports progress (and checks for interruption) every this many input rows. */
    public static final int PROGRESS_INTERVAL_ROWS = 4096;

    // ---- size-tiered policy ---------------------------------------------------------------------

    /** Fewer sorted runs than this are never merged: merging 2 or 3 small runs rewrites too often. */
    public static final int TIERED_MIN_MERGE_WIDTH = 4;

    /** A cap on the fan-in of one compaction, so a single job stays bounded in time and files. */
    public static final int TIERED_MAX_MERGE_WIDTH = 16;

    /**
     * The next older run joins a candidate when it is at most this many times the candidate's
     * accumulated size. Runs of similar size merge; a much larger, older run is left alone.
     */
    public static final double TIERED_SIZE_RATIO = 1.5;

    /**
     * Every run is merged, so that tombstones go with the rows they hide, once the tombstones in
     * the runs newer than the oldest reach this fraction of the oldest run's rows. A database
     * that stops growing never merges its oldest run by size; without this its deleted rows
     * would stay on disk.
     */
    public static final double TIERED_TOMBSTONE_RATIO = 0.25;

    // ---- leveled policy -------------------------------------------------------------------------

    /** Level-0 (flush) segments that trigger a merge into level 1. */
    public static final int LEVELED_L0_TRIGGER = 4;

    /** Each level's target size is this many times the previous level's. */
    public static final int LEVELED_SIZE_MULTIPLIER = 10;

    /** Target size of level 1; level n is this times the multiplier to the power n-1. */
    public static final long LEVELED_BASE_BYTES = 256L << 20;

    // ---- shared -------------------------------------------------------------------------------

    /** The highest level a compaction output gets; deeper merges stay at this level. */
    public static final int MAX_LEVEL = 6;
}
