package dev.tala.engine;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.read.MappedPageFaults;
import dev.tala.engine.read.MergedVersions;
import dev.tala.engine.read.PointLookup;
import dev.tala.engine.view.PinnedView;
import dev.tala.core.model.Relation;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.GraphQueries;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import dev.tala.engine.query.SimilaritySearch;
import dev.tala.segment.vector.Metric;
import dev.tala.engine.query.TimeRangeScan;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A consistent, repeatable view of the database at one sequence number: later writes, flushes
 * and compactions do not change what it reads. Holds memtables and segments alive until closed,
 * so close it promptly.
 *
 * <p>Safe to share between threads. A call in progress holds the view: {@link #close()} from
 * another thread (or from a scan's own consumer) refuses later calls at once, and the view is
 * released when the last call in progress returns.
 *
 * <p>A snapshot that becomes unreachable without being closed is closed then, on a cleaner
 * thread: its segments' mappings are shared arenas that nothing else would ever unmap, so each
 * one a caller forgot kept its compaction inputs mapped and on disk for the life of the process.
 * Collection may come late; closing promptly is still what frees them in time.
 */
public final class Snapshot implements AutoCloseable {
    private final PinnedView pinned;
    private final int dimension;
    private final Hold hold;
    /** Null for the snapshots TalaDB's own reads take and always close. */
    private final Cleaner.Cleanable cleanable;

    Snapshot(PinnedView pinned, int dimension, boolean releaseIfDropped) {
        this.pinned = pinned;
        this.dimension = dimension;
        this.hold = new Hold(pinned);
        // The action must not reach this snapshot, or it would never become unreachable.
        this.cleanable = releaseIfDropped ? Dropped.CLEANER.register(this, hold) : null;
    }

    /** One daemon thread for the process, started with the first snapshot an embedder takes. */
    private static final class Dropped {
        static final Cleaner CLEANER = Cleaner.create(r -> {
            Thread t = new Thread(r, "tala-snapshot-cleaner");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The owner's hold until close, plus one per call in progress; the view goes at zero. Kept
     * apart from the snapshot so that the cleaner can run it: should the cleaner run while a
     * call is still in progress (the JIT may drop the snapshot's last reference early), the
     * call's own hold keeps the view until it returns.
     */
    private static final class Hold implements Runnable {
        private final PinnedView pinned;
        private final AtomicInteger holds = new AtomicInteger(1);
        private final AtomicBoolean closed = new AtomicBoolean();

        Hold(PinnedView pinned) {
            this.pinned = pinned;
        }

        @Override
        public void run() {
            if (closed.compareAndSet(false, true)) {
                drop();
            }
        }

        void drop() {
            if (holds.decrementAndGet() == 0) {
                pinned.close();
            }
        }
    }

    /** The sequence number this snapshot reads at. */
    public long sequence() {
        return pinned.sequence();
    }

    public Optional<Intent> get(IntentId id) {
        Objects.requireNonNull(id, "id");
        return read(() -> {
            IntentVersion v = PointLookup.find(pinned.view(), id, pinned.sequence());
            return v == null || v.isTombstone() ? Optional.empty() : Optional.of(v.intent());
        });
    }

    /** Every live intent, in id order. */
    public void forEachIntent(Consumer<Intent> action) {
        // Checked here: an empty snapshot would never call it, and let a null pass unnoticed.
        Objects.requireNonNull(action, "action");
        read(() -> {
            MergedVersions merged = new MergedVersions(pinned.view(), pinned.sequence());
            while (merged.skipTombstones()) {
                action.accept(merged.version().intent());
                merged.advance();
            }
            return null;
        });
    }

    /**
     * An upper bound of the live intents' timestamps, cheap to get: segments answer from their
     * footers, memtables from every version they hold. It is exact unless the intent with the
     * newest timestamp was deleted or replaced by a version with an earlier one (the bound may
     * then drop after a flush or compaction). Empty when nothing was ever written.
     */
    public java.util.OptionalLong newestTimestamp() {
        return read(() -> {
            long newest = -1;
            for (var s : pinned.view().segments()) {
                // A segment of tombstones only holds no timestamp: its footer's [0, 0] is theirs.
                if (s.reader().putCount() > 0) {
                    newest = Math.max(newest, s.meta().maxTimestamp());
                }
            }
            List<dev.tala.engine.memtable.MemTable> memtables = new ArrayList<>(pinned.view().immutables());
            memtables.add(pinned.view().active());
            for (var m : memtables) {
                for (IntentVersion v : m.versions().values()) {
                    if (!v.isTombstone() && v.sequence() <= pinned.sequence()) {
                        newest = Math.max(newest, v.intent().timestampNs());
                    }
                }
            }
            return newest < 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(newest);
        });
    }

    /** The number of live intents, counted exactly without decoding them. */
    public long countIntents() {
        return read(() -> {
            MergedVersions merged = new MergedVersions(pinned.view(), pinned.sequence());
            long n = 0;
            while (merged.skipTombstones()) {
                n++;
                merged.advance();
            }
            return n;
        });
    }

    /**
     * Live intents with {@code from <= timestamp < to} in (timestamp, id) order, streamed to
     * {@code consumer} until it returns false.
     *
     * @throws IllegalArgumentException if {@code to < from} (bounds below 0 count as 0)
     */
    public long scan(long from, long to, Predicate<Intent> consumer) {
        Objects.requireNonNull(consumer, "consumer"); // as for forEachIntent: an empty range never calls it
        return read(() -> TimeRangeScan.scan(pinned.view(), pinned.sequence(), from, to, consumer));
    }

    /** At most {@code limit} live intents with {@code from <= timestamp < to}, oldest first. */
    public List<Intent> scan(long from, long to, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("the scan limit must be 0 or more, got " + limit);
        }
        // Checked here too: a limit of 0 reads nothing, and would let the range pass unchecked.
        TimeRangeScan.requireOrdered(from, to);
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
        Objects.requireNonNull(id, "id");
        return read(() -> graph().edgesFrom(id));
    }

    /** Edges from live intents to {@code id}, ordered by source id (each source's edges in its order). */
    public List<Hop> edgesTo(IntentId id) {
        Objects.requireNonNull(id, "id");
        return read(() -> graph().edgesTo(id));
    }

    /**
     * Breadth-first traversal from {@code start} up to {@code depth} steps along edges with one
     * of {@code relations} (all when empty), in {@code direction}. Each edge is reported once,
     * with the depth of the hop that first follows it. A depth of 0 follows nothing.
     *
     * @throws IllegalArgumentException if {@code depth} is below 0
     */
    public List<Hop> traverse(IntentId start, int depth, Set<Relation> relations, Direction direction) {
        Objects.requireNonNull(start, "start");
        if (depth < 0) {
            // As a search refuses k < 1: a negative count is a caller's mistake, not an empty answer.
            throw new IllegalArgumentException("depth must be at least 0, got " + depth);
        }
        return read(() -> graph().traverse(start, depth, relations, direction));
    }

    /**
     * The {@code k} live intents most similar to {@code vector} (cosine similarity), best first,
     * among those {@code filter} lets through. Exact: every live vector is scored.
     */
    public List<SearchHit> search(float[] vector, int k, SearchFilter filter) {
        return search(vector, k, Metric.COSINE, filter);
    }

    /** As {@link #search(float[], int, SearchFilter)}, ranking by {@code metric} (dot product for normalized data). */
    public List<SearchHit> search(float[] vector, int k, Metric metric, SearchFilter filter) {
        Objects.requireNonNull(metric, "metric");
        return read(() -> new SimilaritySearch(pinned.view(), pinned.sequence()).search(vector, k, metric, filter,
                dimension));
    }

    private GraphQueries graph() {
        return new GraphQueries(pinned.view(), pinned.sequence());
    }

    /**
     * Runs {@code body} holding the view, so a concurrent close cannot unmap what it reads. A
     * mapped page that cannot be read surfaces as a StorageException naming the segment, not as
     * the JVM's bare InternalError.
     */
    private <T> T read(Supplier<T> body) {
        int h;
        do {
            h = hold.holds.get();
            if (h == 0 || hold.closed.get()) {
                throw new DatabaseClosedException("the snapshot is closed");
            }
        } while (!hold.holds.compareAndSet(h, h + 1));
        try {
            return body.get();
        } catch (InternalError e) {
            if (MappedPageFaults.isPageFault(e)) {
                throw MappedPageFaults.describe(pinned.view(), e);
            }
            throw e;
        } finally {
            hold.drop();
            // Until here: were this snapshot collected between the check above and the increment,
            // the cleaner would close it under a caller still using it (db.snapshot().get(id)).
            Reference.reachabilityFence(this);
        }
    }

    /** Idempotent and thread-safe; a call in progress on another thread finishes first, then the view goes. */
    @Override
    public void close() {
        if (cleanable != null) {
            cleanable.clean(); // runs the hold's release at most once, and no longer at collection
        } else {
            hold.run();
        }
    }
}
