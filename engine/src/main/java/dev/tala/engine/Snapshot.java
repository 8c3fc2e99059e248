package dev.tala.engine;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.read.MergedVersions;
import dev.tala.engine.read.PointLookup;
import dev.tala.engine.view.PinnedView;
import dev.tala.core.model.Relation;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.GraphQueries;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.TimeRangeScan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A consistent, repeatable view of the database at one sequence number: later writes, flushes
 * and compactions do not change what it reads. Holds memtables and segments alive until closed,
 * so close it promptly.
 */
public final class Snapshot implements AutoCloseable {
    private final PinnedView pinned;
    private volatile boolean closed;

    Snapshot(PinnedView pinned) {
        this.pinned = pinned;
    }

    /** The sequence number this snapshot reads at. */
    public long sequence() {
        return pinned.sequence();
    }

    public Optional<Intent> get(IntentId id) {
        checkOpen();
        IntentVersion v = PointLookup.find(pinned.view(), Objects.requireNonNull(id, "id"), pinned.sequence());
        return v == null || v.isTombstone() ? Optional.empty() : Optional.of(v.intent());
    }

    /** Every live intent, in id order. */
    public void forEachIntent(Consumer<Intent> action) {
        checkOpen();
        MergedVersions merged = new MergedVersions(pinned.view(), pinned.sequence());
        while (merged.skipTombstones()) {
            action.accept(merged.version().intent());
            merged.advance();
        }
    }

    /** The number of live intents, counted exactly without decoding them. */
    public long countIntents() {
        checkOpen();
        MergedVersions merged = new MergedVersions(pinned.view(), pinned.sequence());
        long n = 0;
        while (merged.skipTombstones()) {
            n++;
            merged.advance();
        }
        return n;
    }

    /**
     * Live intents with {@code from <= timestamp < to} in (timestamp, id) order, streamed to
     * {@code consumer} until it returns false.
     */
    public long scan(long from, long to, Predicate<Intent> consumer) {
        checkOpen();
        return TimeRangeScan.scan(pinned.view(), pinned.sequence(), from, to, consumer);
    }

    /** At most {@code limit} live intents with {@code from <= timestamp < to}, oldest first. */
    public List<Intent> scan(long from, long to, int limit) {
        List<Intent> out = new ArrayList<>();
        if (limit > 0) {
            scan(from, to, i -> {
                out.add(i);
                return out.size() < limit;
            });
        }
        return out;
    }

    /** Edges from {@code id} to live intents. */
    public List<Hop> edgesFrom(IntentId id) {
        checkOpen();
        return graph().edgesFrom(Objects.requireNonNull(id, "id"));
    }

    /** Edges from live intents to {@code id}. */
    public List<Hop> edgesTo(IntentId id) {
        checkOpen();
        return graph().edgesTo(Objects.requireNonNull(id, "id"));
    }

    /**
     * Breadth-first traversal from {@code start} up to {@code depth} steps along edges with one
     * of {@code relations} (all when empty), in {@code direction}.
     */
    public List<Hop> traverse(IntentId start, int depth, Set<Relation> relations, Direction direction) {
        checkOpen();
        return graph().traverse(Objects.requireNonNull(start, "start"), depth, relations, direction);
    }

    private GraphQueries graph() {
        return new GraphQueries(pinned.view(), pinned.sequence());
    }

    PinnedView pinned() {
        return pinned;
    }

    private void checkOpen() {
        if (closed) {
            throw new DatabaseClosedException("the snapshot is closed");
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            pinned.close();
        }
    }
}
