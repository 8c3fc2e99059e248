package dev.tala.segment.vector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The k best (score, key) pairs seen so far. Better means a higher score; equal scores (0.0 and
 * -0.0 count as equal) are ordered by the smaller key, so the result does not depend on the order
 * of the offers. Keys are not deduplicated.
 *
 * <p>A bounded min-heap over two primitive arrays with the worst kept pair at the root: an offer
 * that does not beat the root costs one comparison, and no offer allocates. Not thread-safe: give
 * each scanning thread its own and merge them with {@link #offerAll}.
 */
public final class TopK {
    /** Best first, by the order described above. */
    public static final Comparator<Hit> BEST_FIRST = (a, b) -> {
        if (a.score() != b.score()) {
            return a.score() > b.score() ? -1 : 1;
        }
        return Long.compare(a.key(), b.key());
    };

    private final float[] scores;
    private final long[] keys;
    private int size;

    /** @param k how many pairs to keep, at least 1 */
    public TopK(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        this.scores = new float[k];
        this.keys = new long[k];
    }

    public int capacity() {
        return scores.length;
    }

    public int size() {
        return size;
    }

    /**
     * The score an offer has to exceed to be kept: the worst kept score once k pairs are held,
     * negative infinity before. (An equal score is kept only if its key is smaller.)
     */
    public float threshold() {
        return size < scores.length ? Float.NEGATIVE_INFINITY : scores[0];
    }

    /**
     * Keeps the pair if it is among the k best so far.
     *
     * @return whether it was kept
     * @throws IllegalArgumentException if {@code score} is NaN, which has no rank
     */
    public boolean offer(float score, long key) {
        if (score != score) {
            throw new IllegalArgumentException("a NaN score cannot be ranked (key " + key + ")");
        }
        if (size < scores.length) {
            siftUp(size++, score, key);
            return true;
        }
        if (!better(score, key, scores[0], keys[0])) {
            return false;
        }
        siftDown(0, score, key);
        return true;
    }

    /** Offers every pair {@code other} holds: merges per-thread or per-segment results. */
    public void offerAll(TopK other) {
        for (int i = 0; i < other.size; i++) {
            offer(other.scores[i], other.keys[i]);
        }
    }

    public void clear() {
        size = 0;
    }

    /** The kept pairs, best first. Leaves this unchanged. */
    public List<Hit> sorted() {
        List<Hit> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(new Hit(scores[i], keys[i]));
        }
        out.sort(BEST_FIRST);
        return out;
    }

    /**
     * Moves the kept pairs into {@code outScores} and {@code outKeys}, best first, without
     * allocating, and empties this heap for reuse (an in-place heap sort).
     *
     * @return how many pairs were written
     */
    public int drainSorted(float[] outScores, long[] outKeys) {
        int n = size;
        if (outScores.length < n || outKeys.length < n) {
            throw new IllegalArgumentException("output arrays of " + outScores.length + " and " + outKeys.length
                    + " elements cannot hold " + n + " results");
        }
        // Popping the root yields the worst remaining pair, so the output fills from the back.
        while (size > 0) {
            int last = --size;
            outScores[last] = scores[0];
            outKeys[last] = keys[0];
            if (last > 0) {
                siftDown(0, scores[last], keys[last]);
            }
        }
        return n;
    }

    /** Whether (s1, k1) ranks before (s2, k2). */
    private static boolean better(float s1, long k1, float s2, long k2) {
        return s1 > s2 || (s1 == s2 && k1 < k2);
    }

    /** Places the pair at hole {@code i} or above it: parents that rank better than the pair move down. */
    private void siftUp(int i, float score, long key) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!better(scores[parent], keys[parent], score, key)) {
                break;
            }
            scores[i] = scores[parent];
            keys[i] = keys[parent];
            i = parent;
        }
        scores[i] = score;
        keys[i] = key;
    }

    /** Places the pair at hole {@code i} or below it: the worse child moves up while the pair ranks better. */
    private void siftDown(int i, float score, long key) {
        int n = size;
        while (true) {
            int child = 2 * i + 1;
            if (child >= n) {
                break;
            }
            int right = child + 1;
            if (right < n && better(scores[child], keys[child], scores[right], keys[right])) {
                child = right;
            }
            if (!better(score, key, scores[child], keys[child])) {
                break;
            }
            scores[i] = scores[child];
            keys[i] = keys[child];
            i = child;
        }
        scores[i] = score;
        keys[i] = key;
    }

    @Override
    public String toString() {
        return "TopK{k=" + scores.length + ", size=" + size + ", best=" + (size == 0 ? "-" : sorted().get(0)) + "}";
    }

}
