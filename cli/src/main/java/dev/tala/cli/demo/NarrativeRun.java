package dev.tala.cli.demo;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * One pass of the generator: exactly {@code count} intents in timestamp order (see
 * {@link Scheduler} for how narratives interleave).
 *
 * <p>"Now" is the timestamp of the run's last intent. A step still running then (its start plus
 * its latency is later) is emitted as {@code pending} without an outcome, as in a live system;
 * nothing that would follow it in its narrative happens before now, so nothing else changes. To
 * know now up front, the constructor first runs the scheduler dry (no embeddings, no intents),
 * which costs a fraction of the real run. A longer run of the same seed therefore shares the
 * beginning, except the statuses of the steps that were running at the shorter run's end.
 *
 * <p>Not thread-safe; single use.
 */
public final class NarrativeRun implements Iterator<Intent> {
    private final TextEmbedder embedder;
    private final Scheduler scheduler;
    private final int count;
    private final long nowNs;
    private final List<IntentId> failures = new ArrayList<>();
    private final List<FailureChain> chains = new ArrayList<>();
    /** Index in {@link #chains} of each incident narrative with a cause, by the narrative's serial. */
    private final Map<Long, Integer> chainOfStory = new HashMap<>();
    private int emitted;
    private long lastTimestampNs = -1;

    NarrativeRun(long seed, long startNs, int count, TextEmbedder embedder) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
        this.embedder = embedder;
        this.count = count;
        this.nowNs = lastTimestamp(seed, startNs, count);
        this.scheduler = new Scheduler(seed, startNs);
    }

    private static long lastTimestamp(long seed, long startNs, int count) {
        Scheduler dry = new Scheduler(seed, startNs);
        long last = startNs;
        for (int i = 0; i < count; i++) {
            last = dry.next().step().timeNs;
        }
        return last;
    }

    @Override
    public boolean hasNext() {
        return emitted < count;
    }

    @Override
    public Intent next() {
        if (!hasNext()) {
            throw new NoSuchElementException("all " + count + " intents were generated");
        }
        Scheduler.Event event = scheduler.next();
        ActiveStory story = event.story();
        PlannedStep step = event.step();
        IntentId id = event.id();
        List<Edge> edges = new ArrayList<>(step.edges.size());
        for (PlannedEdge e : step.edges) {
            IntentId target = e.external() != null ? e.external() : story.idOf(e.local());
            edges.add(new Edge(target, e.relation(), e.weight()));
        }
        Intent.Builder b = Intent.builder()
                .id(id)
                .timestampNs(step.timeNs)
                .contextHash(story.contextHash)
                .confidence(step.confidence)
                .command(step.command)
                .embedding(embedder.embed(step.command))
                .edges(edges);
        if (step.endNs() <= nowNs) {
            b.status(step.status).outcome(step.outcome);
            if (step.status == Status.FAILURE) {
                failures.add(id);
            }
        } // else still running at the end of the run: pending (the default), no outcome yet
        trackChain(story, id);
        emitted++;
        lastTimestampNs = step.timeNs;
        return b.build();
    }

    /** Ids of the intents emitted with status failure, in order. */
    public List<IntentId> failedIds() {
        return Collections.unmodifiableList(failures);
    }

    /** Failures that set off an incident whose alert was emitted, in order of the failures. */
    public List<FailureChain> failureChains() {
        return Collections.unmodifiableList(chains);
    }

    /** The timestamp of the last intent emitted, or -1 before the first. */
    public long lastTimestampNs() {
        return lastTimestampNs;
    }

    private void trackChain(ActiveStory story, IntentId id) {
        if (story.cause == null) {
            return;
        }
        Integer index = chainOfStory.get(story.serial);
        if (index == null) {
            chainOfStory.put(story.serial, chains.size());
            chains.add(new FailureChain(story.cause, id, id));
        } else {
            FailureChain chain = chains.get(index);
            chains.set(index, new FailureChain(chain.failure(), chain.alert(), id));
        }
    }
}
