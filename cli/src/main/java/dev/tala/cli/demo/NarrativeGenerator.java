package dev.tala.cli.demo;

import dev.tala.core.model.Intent;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Realistic demo data: intents grouped in narratives of a few to about twenty steps, from four
 * families (deploys, incidents, CI builds, provisioning), with real-looking commands, outcomes,
 * causal / temporal / dependency / retry / branch edges and UUIDv7 ids that increase with time.
 * See {@link NarrativeRun} for how narratives interleave and end.
 *
 * <p>Reproducible: the same seed and start time give the same intents, bit for bit, on any
 * machine. The default start time is derived from the seed; to add data after an existing
 * database, pass {@link #startAfter(long)} of its last timestamp (the run's randomness depends
 * on the start time too, so the new data does not repeat the old).
 *
 * <p>Edges point from the later intent to the earlier one: "caused by", "follows", "depends
 * on", "retries", "branches from".
 */
public final class NarrativeGenerator {
    /** 2025-01-01T00:00:00Z: default start times fall within the year after it. */
    private static final long EPOCH_NS = 1_735_689_600L * 1_000_000_000L;
    private static final long SPREAD_SECONDS = 365L * 86_400L;

    private final long seed;
    private final TextEmbedder embedder;
    private final long startNs;

    public NarrativeGenerator(long seed, int dimension, TextEmbedder embedder) {
        this(seed, dimension, embedder, defaultStartNs(seed));
    }

    /** @param startNs the simulated time of the first intent, nanoseconds since the epoch */
    public NarrativeGenerator(long seed, int dimension, TextEmbedder embedder, long startNs) {
        if (embedder.dimension() != dimension) {
            throw new IllegalArgumentException("the embedder makes " + embedder.dimension()
                    + "-dimensional vectors but the database's dimension is " + dimension);
        }
        if (startNs < 0) {
            throw new IllegalArgumentException("startNs must be >= 0, got " + startNs);
        }
        this.seed = seed;
        this.embedder = embedder;
        this.startNs = startNs;
    }

    /** A whole second within 2025, chosen by the seed. */
    public static long defaultStartNs(long seed) {
        return EPOCH_NS + Long.remainderUnsigned(Hash64.mix(seed), SPREAD_SECONDS) * 1_000_000_000L;
    }

    /**
     * The first millisecond after {@code lastTimestampNs}: starting there, every new id is greater
     * than every id generated up to that timestamp (UUIDv7 ids order by millisecond first).
     */
    public static long startAfter(long lastTimestampNs) {
        return (Math.floorDiv(lastTimestampNs, 1_000_000L) + 1) * 1_000_000L;
    }

    public long startNs() {
        return startNs;
    }

    /** A new run of exactly {@code count} intents; it also reports failures for the demo. */
    public NarrativeRun run(int count) {
        return new NarrativeRun(Hash64.mix(seed ^ Hash64.mix(startNs)), startNs, count, embedder);
    }

    /** The intents of {@link #run(int)} as a sequential stream. */
    public Stream<Intent> stream(int count) {
        return StreamSupport.stream(Spliterators.spliterator(run(count), count,
                Spliterator.ORDERED | Spliterator.NONNULL), false);
    }
}
