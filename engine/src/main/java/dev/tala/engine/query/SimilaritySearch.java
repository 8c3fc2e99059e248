package dev.tala.engine.query;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.vector.Hit;
import dev.tala.segment.vector.Metric;
import dev.tala.segment.vector.Query;
import dev.tala.segment.vector.TopK;
import dev.tala.segment.vector.VectorKernels;
import dev.tala.segment.vector.VectorScoring;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Exact top-k similarity search as a reader at one sequence number sees the data. Every live
 * version is scored: segments by the Vector API kernels straight from the mapped embedding
 * region (searched in parallel on the available cores), memtables from the in-memory vectors.
 * A scored row enters the heap only if it beats the heap's threshold, passes the filter and is
 * the newest version of its id (no newer source holds the id), so shadowed and deleted
 * versions are never returned; those checks run only for the few rows that beat the threshold.
 */
public final class SimilaritySearch {
    /** Slots scored per kernel call; the scores buffer is reused across calls. */
    private static final int CHUNK = 4096;
    /** A heap key is (source << SOURCE_SHIFT) | row-or-candidate: rows fit in 40 bits. */
    private static final int SOURCE_SHIFT = 40;
    private static final long INDEX_MASK = (1L << SOURCE_SHIFT) - 1;

    private final ReadView view;
    private final long sequence;
    private final List<MemTable> memtables = new ArrayList<>();
    private final List<SegmentHandle> segments;

    public SimilaritySearch(ReadView view, long sequence) {
        this.view = view;
        this.sequence = sequence;
        memtables.add(view.active());
        memtables.addAll(view.immutables());
        this.segments = view.segments();
    }

    public List<SearchHit> search(float[] vector, int k, Metric metric, SearchFilter filter, int dimension) {
        Objects.requireNonNull(vector, "vector");
        Objects.requireNonNull(filter, "filter");
        if (vector.length != dimension) {
            throw new InvalidIntentException("vector", "has " + vector.length + " values but the database's dimension is "
                    + dimension);
        }
        for (int i = 0; i < vector.length; i++) {
            if (!Float.isFinite(vector[i])) {
                throw new InvalidIntentException("vector", "value " + i + " is " + vector[i]
                        + "; every value must be a finite number");
            }
        }
        if (metric == Metric.COSINE && isZero(vector)) {
            // Every score would be 0 and the hits arbitrary; Lucene refuses such a query too.
            throw new InvalidIntentException("vector", "is all zeros, which has no cosine similarity to anything;"
                    + " search with a non-zero vector, or by dot product");
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        Query query = metric.query(vector);
        // Keys name the source (memtables first, then segments) and the row or memtable
        // candidate. Each source has its own heap: within one, keys ascend with ids, so its
        // heap breaks ties by id; one heap for all would break them by source, and which of
        // two equal scores made the top k would change with a flush or a compaction.
        List<List<Intent>> memCandidates = new ArrayList<>();
        List<TopK> perSource = new ArrayList<>();
        for (int m = 0; m < memtables.size(); m++) {
            TopK top = new TopK(capacity(k, memtables.get(m).versionCount()));
            memCandidates.add(scoreMemtable(m, query, metric, filter, top));
            perSource.add(top);
        }
        int base = memtables.size();
        perSource.addAll(IntStream.range(0, segments.size()).parallel()
                .mapToObj(s -> scoreSegment(s, base + s, query, metric, filter, k))
                .toList());
        List<Ranked> ranked = new ArrayList<>();
        for (TopK top : perSource) {
            for (Hit h : top.sorted()) {
                int source = (int) (h.key() >>> SOURCE_SHIFT);
                int index = (int) (h.key() & INDEX_MASK);
                IntentId id = source < base ? memCandidates.get(source).get(index).id()
                        : segments.get(source - base).reader().id(index);
                ranked.add(new Ranked(h.score(), id, source, index));
            }
        }
        // Best score first, equal scores by id (0.0 and -0.0 are equal, as in TopK).
        ranked.sort((a, b) -> a.score != b.score ? Float.compare(b.score, a.score) : a.id.compareTo(b.id));
        List<SearchHit> hits = new ArrayList<>();
        for (Ranked r : ranked.subList(0, Math.min(k, ranked.size()))) {
            Intent intent = r.source < base ? memCandidates.get(r.source).get(r.index)
                    : segments.get(r.source - base).reader().version(r.index).intent();
            hits.add(new SearchHit(intent, r.score));
        }
        return hits;
    }

    private static boolean isZero(float[] vector) {
        for (float v : vector) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }

    /** A hit of one source's heap, with the id that orders it among equal scores. */
    private record Ranked(float score, IntentId id, int source, int index) {
    }

    private List<Intent> scoreMemtable(int m, Query query, Metric metric, SearchFilter filter, TopK top) {
        List<Intent> candidates = new ArrayList<>();
        MemTable table = memtables.get(m);
        if (!table.mayHoldTimestampsIn(filter.fromTimestamp(), filter.toTimestamp())) {
            return candidates;
        }
        forEachNewestVisible(table, filter, v -> {
            if (v.isTombstone() || !filter.accepts(v.intent()) || shadowedByMemtable(v.id(), m)) {
                return;
            }
            MemorySegment embedding = v.intent().embeddingView();
            long dotNorm = VectorKernels.dotAndNorm(EmbeddingType.F32, query, embedding, 0);
            float score = metric.score(dotNorm, query, EmbeddingType.F32, embedding, 0);
            if (score == score && top.offer(score, ((long) m << SOURCE_SHIFT) | candidates.size())) {
                candidates.add(v.intent());
            }
        });
        return candidates;
    }

    /**
     * Hands {@code consumer} the newest version of each id in {@code table} visible at this
     * search's sequence, in id order, so that the heap breaks ties by id as a segment's does.
     * When the filter's time range leaves out some of the table, only the versions in the range
     * are read (a search of the last hour need not score the whole memtable); else the table is
     * walked.
     */
    private void forEachNewestVisible(MemTable table, SearchFilter filter, Consumer<IntentVersion> consumer) {
        if (!table.holdsOnlyTimestampsIn(filter.fromTimestamp(), filter.toTimestamp())) {
            List<IntentVersion> inRange = table.newestIn(filter.fromTimestamp(), filter.toTimestamp(), sequence);
            inRange.sort(Comparator.comparing(IntentVersion::id));
            inRange.forEach(consumer);
            return;
        }
        IntentId previous = null;
        for (IntentVersion v : table.versions().values()) {
            if (!v.id().equals(previous) && v.sequence() <= sequence) {
                previous = v.id();
                consumer.accept(v);
            }
        }
    }

    private static int capacity(int k, long candidates) {
        return (int) Math.max(1, Math.min(k, candidates));
    }

    private TopK scoreSegment(int s, int source, Query query, Metric metric, SearchFilter filter, int k) {
        SegmentHandle handle = segments.get(s);
        SegmentMeta meta = handle.meta();
        SegmentReader r = handle.reader();
        TopK top = new TopK(capacity(k, r.putCount()));
        if (r.putCount() == 0 || !filter.overlaps(meta.minTimestamp(), meta.maxTimestamp())) {
            return top;
        }
        float[] scores = new float[Math.min(CHUNK, r.putCount())];
        int row = 0;
        for (int from = 0; from < r.putCount(); from += CHUNK) {
            int to = Math.min(r.putCount(), from + CHUNK);
            VectorScoring.score(r.embeddingRegion(), r.stride(), from, to, r.dtype(), r.dimension(), query, metric, scores);
            for (int slot = from; slot < to; slot++) {
                row = r.rowOfSlot(slot, row); // tombstones have no slot: slots follow the live rows in order
                float score = scores[slot - from];
                long key = ((long) source << SOURCE_SHIFT) | row;
                if (score == score && (top.size() < top.capacity() || score >= top.threshold())
                        && filter.accepts(r.timestamp(row), r.status(row), r.confidence(row))
                        && !shadowedBySegmentOrMemtable(r.id(row), s)) {
                    top.offer(score, key);
                }
                row++;
            }
        }
        return top;
    }

    private boolean shadowedByMemtable(IntentId id, int memtable) {
        for (int m = 0; m < memtable; m++) {
            if (memtables.get(m).get(id, sequence) != null) {
                return true;
            }
        }
        return false;
    }

    private boolean shadowedBySegmentOrMemtable(IntentId id, int segment) {
        if (shadowedByMemtable(id, memtables.size())) {
            return true;
        }
        for (int s = 0; s < segment; s++) {
            SegmentReader r = segments.get(s).reader();
            if (r.mightContain(id) && r.find(id) >= 0) {
                return true;
            }
        }
        return false;
    }
}
