package dev.tala.engine.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ArrivalTimeIndexTest {

    /**
     * Whatever order the timestamps arrive in (in order, a little late, or one very late among
     * many in order), a range gets exactly the versions whose timestamps are in it, each once,
     * in arrival order.
     */
    @Property(tries = 300)
    void aRangeGetsExactlyTheVersionsInIt(@ForAll("arrivals") List<Long> timestamps, @ForAll("bound") long a,
                                         @ForAll("bound") long b) {
        ArrivalTimeIndex index = new ArrivalTimeIndex();
        List<IntentVersion> added = new ArrayList<>();
        for (int i = 0; i < timestamps.size(); i++) {
            IntentVersion v = version(i, timestamps.get(i));
            index.add(v);
            added.add(v);
        }
        long from = Math.min(a, b);
        long to = Math.max(a, b);
        List<IntentVersion> expected = added.stream()
                .filter(v -> v.intent().timestampNs() >= from && v.intent().timestampNs() < to).toList();
        List<IntentVersion> got = new ArrayList<>();
        index.forEachIn(from, to, got::add);
        assertEquals(expected, got, "[" + from + ", " + to + ") over " + timestamps);
        List<IntentVersion> all = new ArrayList<>();
        index.forEachIn(0, Long.MAX_VALUE, all::add);
        assertEquals(added, all);
    }

    @Provide
    Arbitrary<List<Long>> arrivals() {
        Arbitrary<Long> step = Arbitraries.longs().between(-30, 100);
        Arbitrary<List<Long>> nearlyOrdered = step.list().ofMaxSize(3000).map(steps -> {
            List<Long> out = new ArrayList<>();
            long t = 1_000;
            for (long s : steps) {
                t = Math.max(0, t + s);
                out.add(t);
            }
            return out;
        });
        Arbitrary<List<Long>> anyOrder = Arbitraries.longs().between(0, 5_000).list().ofMaxSize(2000);
        Arbitrary<List<Long>> oneVeryLate = Combinators.combine(Arbitraries.integers().between(1, 1500),
                Arbitraries.integers().between(0, 1499)).as((n, at) -> {
                    List<Long> out = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        out.add(10_000L + 10L * i);
                    }
                    out.add(Math.min(at, out.size()), 5L);
                    return out;
                });
        return Arbitraries.oneOf(nearlyOrdered, anyOrder, oneVeryLate);
    }

    @Provide
    Arbitrary<Long> bound() {
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 30_000), Arbitraries.just(0L),
                Arbitraries.just(Long.MAX_VALUE));
    }

    /**
     * A reader running beside the writer sees every version added before its call began, and
     * no half-written entry, across the copies that grow the arrays.
     */
    @Test
    void aReaderBesideTheWriterSeesEverythingAddedBeforeItsCall() throws Exception {
        ArrivalTimeIndex index = new ArrivalTimeIndex();
        int total = 200_000;
        AtomicInteger published = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<AssertionError> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try {
                int checks = 0;
                while (!done.get() || checks == 0) {
                    int before = published.get();
                    List<IntentVersion> seen = new ArrayList<>();
                    index.forEachIn(0, Long.MAX_VALUE, seen::add);
                    assertTrue(seen.size() >= before, seen.size() + " seen, " + before + " added before the call");
                    for (int i = 0; i < seen.size(); i++) {
                        assertEquals(i, seen.get(i).sequence(), "entry " + i);
                    }
                    checks++;
                }
            } catch (AssertionError e) {
                failure.set(e);
            }
        });
        reader.start();
        for (int i = 0; i < total; i++) {
            // Every fifth arrives a little late, as from a second writer thread.
            index.add(version(i, 1_000L + i - (i % 5 == 0 ? 3 : 0)));
            published.set(i + 1);
        }
        done.set(true);
        reader.join(60_000);
        assertTrue(!reader.isAlive(), "the reader is still running");
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private static IntentVersion version(int sequence, long timestamp) {
        Intent intent = Intent.builder().id(IntentId.of(1, sequence)).timestampNs(timestamp)
                .embedding(new float[] {1, 0}).build();
        return IntentVersion.put(sequence, intent);
    }
}
