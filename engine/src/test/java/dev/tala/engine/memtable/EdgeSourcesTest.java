package dev.tala.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.IntentId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import org.junit.jupiter.api.Test;

class EdgeSourcesTest {
    private static IntentId id(int n) {
        return IntentId.of(0x0190_0000_0000_7000L, n);
    }

    /** Pairs of (target, source) from small pools, so targets repeat and pass the array limit. */
    @Provide
    Arbitrary<List<Tuple2<Integer, Integer>>> adds() {
        Arbitrary<Integer> targets = Arbitraries.integers().between(0, 5);
        Arbitrary<Integer> sources = Arbitraries.integers().between(0, 3 * EdgeSources.ARRAY_LIMIT);
        return Combinators.combine(targets, sources).as(Tuple::of).list().ofMaxSize(200);
    }

    @Property
    void everySourceIsKeptOnceForItsTarget(@ForAll("adds") List<Tuple2<Integer, Integer>> adds) {
        EdgeSources sources = new EdgeSources();
        Map<Integer, Set<IntentId>> model = new HashMap<>();
        for (Tuple2<Integer, Integer> a : adds) {
            sources.add(id(a.get1()), id(100 + a.get2()));
            model.computeIfAbsent(a.get1(), k -> new LinkedHashSet<>()).add(id(100 + a.get2()));
        }
        for (int target = 0; target <= 6; target++) {
            Collection<IntentId> got = sources.of(id(target));
            Set<IntentId> want = model.getOrDefault(target, Set.of());
            assertEquals(want.size(), got.size(), "sources of target " + target + ": " + got);
            assertEquals(want, new HashSet<>(got), "sources of target " + target);
        }
    }

    /**
     * A reader running beside the writer sees, each time it looks, distinct sources that were
     * all added, never fewer than the time before: across the switch from array to set too.
     */
    @Test
    void aReaderBesideTheWriterSeesAGrowingSetOfAddedSources() throws Exception {
        EdgeSources sources = new EdgeSources();
        IntentId target = id(1);
        int total = 4 * EdgeSources.ARRAY_LIMIT;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                int last = 0;
                while (last < total) {
                    Collection<IntentId> seen = sources.of(target);
                    List<IntentId> copy = new ArrayList<>(seen);
                    assertEquals(copy.size(), new HashSet<>(copy).size(), "duplicates in " + copy);
                    for (IntentId s : copy) {
                        long n = s.leastSignificantBits();
                        assertTrue(n >= 1000 && n < 1000 + total, "never added: " + s);
                    }
                    assertTrue(copy.size() >= last, "shrank from " + last + " to " + copy.size());
                    last = copy.size();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        for (int i = 0; i < total; i++) {
            sources.add(target, id(1000 + i));
            sources.add(target, id(1000 + i / 2)); // a repeat, never a second copy
            Thread.onSpinWait();
        }
        reader.join(10_000);
        assertTrue(!reader.isAlive(), "the reader never saw all " + total + " sources");
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(total, sources.of(target).size());
    }
}
