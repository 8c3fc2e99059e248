package dev.tala.engine;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.read.MergedVersions;
import dev.tala.engine.read.PointLookup;
import dev.tala.engine.view.PinnedView;
import java.util.Objects;
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
