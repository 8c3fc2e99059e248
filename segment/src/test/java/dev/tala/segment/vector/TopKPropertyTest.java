package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** TopK against the obvious reference: sort everything, take the first k. */
class TopKPropertyTest {
    /** Written out independently of TopK.BEST_FIRST: higher score first, -0.0 equal to 0.0, then smaller key. */
    static final Comparator<Hit> REFERENCE_ORDER = (a, b) -> {
        double sa = a.score();
        double sb = b.score();
        if (sa > sb) {
            return -1;
        }
        if (sa < sb) {
            return 1;
        }
        return Long.compare(a.key(), b.key());
    };

    /** Scores drawn from a small set so that ties are common, with both zeros and infinities. */
    private static float score(Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> 0f;
            case 1 -> -0f;
            case 2 -> r.nextInt(5) / 4f;
            case 3 -> r.nextBoolean() ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
            default -> r.nextFloat() * 2 - 1;
        };
    }

    private static List<Hit> offers(Random r, int n) {
        List<Long> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(r.nextInt(4) == 0 ? r.nextLong() : i * 3L - n);
        }
        // Distinct keys: with a repeated (score, key) pair the order of the two copies would be unobservable.
        List<Long> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(keys));
        Collections.shuffle(distinct, r);
        List<Hit> out = new ArrayList<>();
        for (long key : distinct) {
            out.add(new Hit(score(r), key));
        }
        return out;
    }

    private static List<Hit> reference(List<Hit> all, int k) {
        List<Hit> sorted = new ArrayList<>(all);
        sorted.sort(REFERENCE_ORDER);
        return sorted.subList(0, Math.min(k, sorted.size()));
    }

    @Property(tries = 300)
    void keepsTheKBestSortedBestFirst(@ForAll @IntRange(min = 1, max = 40) int k,
            @ForAll @IntRange(min = 0, max = 300) int n, @ForAll long seed) {
        List<Hit> all = offers(new Random(seed), n);
        TopK top = new TopK(k);
        for (Hit h : all) {
            float before = top.threshold();
            boolean kept = top.offer(h.score(), h.key());
            // An offer below the threshold is never kept; one above always is.
            if (h.score() < before) {
                assertTrue(!kept, "kept " + h + " below the threshold " + before);
            }
            if (h.score() > before) {
                assertTrue(kept, "dropped " + h + " above the threshold " + before);
            }
        }
        List<Hit> expected = reference(all, k);
        assertEquals(expected.size(), top.size());
        assertEquals(expected, top.sorted());
        float[] scores = new float[k];
        long[] keys = new long[k];
        int count = top.drainSorted(scores, keys);
        assertEquals(expected.size(), count);
        for (int i = 0; i < count; i++) {
            assertEquals(expected.get(i), new Hit(scores[i], keys[i]), "position " + i);
        }
        assertEquals(0, top.size(), "drainSorted empties the heap");
    }

    @Property(tries = 100)
    void mergingPartsEqualsOneHeap(@ForAll @IntRange(min = 1, max = 20) int k, @ForAll @IntRange(min = 0, max = 200) int n,
            @ForAll @IntRange(min = 1, max = 5) int parts, @ForAll long seed) {
        List<Hit> all = offers(new Random(seed), n);
        TopK merged = new TopK(k);
        for (int p = 0; p < parts; p++) {
            TopK part = new TopK(k);
            for (int i = p; i < all.size(); i += parts) {
                part.offer(all.get(i).score(), all.get(i).key());
            }
            merged.offerAll(part);
        }
        assertEquals(reference(all, k), merged.sorted());
    }

    @Test
    void nanIsRefusedAndKIsPositive() {
        TopK top = new TopK(3);
        assertThrows(IllegalArgumentException.class, () -> top.offer(Float.NaN, 1));
        assertEquals(0, top.size());
        assertThrows(IllegalArgumentException.class, () -> new TopK(0));
    }

    @Test
    void tiesAreBrokenBySmallerKeyWhateverTheOfferOrder() {
        TopK forward = new TopK(2);
        TopK backward = new TopK(2);
        for (long key = 0; key < 10; key++) {
            forward.offer(0.5f, key);
            backward.offer(0.5f, 9 - key);
        }
        List<Hit> expected = List.of(new Hit(0.5f, 0), new Hit(0.5f, 1));
        assertEquals(expected, forward.sorted());
        assertEquals(expected, backward.sorted());
    }
}
