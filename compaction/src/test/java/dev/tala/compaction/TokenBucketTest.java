package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.IntentVersion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentSummary;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenBucketTest {
    private static final long MS = 1_000_000L;

    @Test
    void aFullBucketLetsABurstThroughThenPacesAtTheRate() throws Exception {
        FakeClock clock = new FakeClock();
        TokenBucket bucket = new TokenBucket(1000, 100, clock);
        bucket.acquire(100);
        assertEquals(0, clock.slept, "the burst is free");
        assertEquals(500 * MS, bucket.acquire(500), "500 bytes of debt at 1000 B/s is half a second");
        assertEquals(500 * MS, clock.slept);
        for (int i = 0; i < 10; i++) {
            bucket.acquire(1000);
        }
        assertEquals(10_500 * MS, clock.slept, "the long-run rate is exactly the limit");
        assertEquals(clock.slept, bucket.sleptNanos());
    }

    @Test
    void idleTimeRefillsOnlyUpToTheBurst() throws Exception {
        FakeClock clock = new FakeClock();
        TokenBucket bucket = new TokenBucket(1000, 100, clock);
        clock.advance(60_000 * MS); // a minute idle must not bank a minute of writes
        bucket.acquire(300);
        assertEquals(200 * MS, clock.slept);
    }

    /**
     * A debt of minutes (1,000 bytes at 10 B/s) is slept in slices, and a cancellation between
     * two ends it: a closing database waited out the whole sleep of its throttled compaction.
     */
    @Test
    void aLongSleepEndsSoonAfterItsCallerIsCancelled() throws Exception {
        FakeClock clock = new FakeClock();
        TokenBucket bucket = new TokenBucket(10, 1, clock);
        long cancelAt = clock.now + 200 * MS;
        InterruptedIOException cancelled = assertThrows(InterruptedIOException.class,
                () -> bucket.acquire(1_001, () -> clock.now >= cancelAt));
        assertTrue(cancelled.getMessage().contains("cancelled"), cancelled.getMessage());
        assertEquals(200 * MS, clock.slept, "slept until the first check after the cancellation, not 100 s");
        assertEquals(100_000 * MS, new TokenBucket(10, 1, new FakeClock()).acquire(1_001, () -> false),
                "uncancelled, the whole debt is slept");
    }

    @Test
    void nonsenseRatesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(10, 0, new FakeClock()));
    }

    @Test
    void anInterruptedSleepBecomesAnInterruptedIoException() {
        TokenBucket bucket = new TokenBucket(1, 1, new TokenBucket.Clock() {
            @Override
            public long nanoTime() {
                return 0;
            }

            @Override
            public void sleepNanos(long nanos) throws InterruptedException {
                throw new InterruptedException();
            }
        });
        assertThrows(InterruptedIOException.class, () -> bucket.acquire(10));
        assertTrue(Thread.interrupted(), "the interrupt flag is restored (and cleared here)");
    }

    @Test
    void aJobIsThrottledOnEveryByteItWrites(@TempDir Path dir) throws Exception {
        int dim = 32;
        RandomIntents intents = new RandomIntents(9, dim);
        List<IntentVersion> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(IntentVersion.put(i + 1, intents.next()));
        }
        rows.sort((a, b) -> a.id().compareTo(b.id()));
        List<SegmentReader> inputs = List.of(SegmentFiles.writeInput(dir, 1, dim, EmbeddingType.F32, rows));
        try {
            FakeClock clock = new FakeClock();
            long rate = 100_000;
            long burst = 1_000;
            TokenBucket bucket = new TokenBucket(rate, burst, clock);
            // Another writer sharing the bucket drains it first: its wait is not this job's.
            long othersWait = bucket.acquire(burst + 5_000);
            assertEquals(50 * MS, othersWait);
            AtomicLong ids = new AtomicLong(10);
            CompactionJob job = new CompactionJob(SegmentFiles.LOCAL,
                    CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(20_000).withSync(false),
                    ids::getAndIncrement, id -> SegmentFiles.path(dir, id)).withRateLimiter(bucket);
            CompactionResult result = job.run(inputs, 1, true);

            // Every byte goes through the bucket: the files, plus the header each output rewrites
            // at the end to clear is_partial.
            long bytes = result.outputs().stream().mapToLong(SegmentSummary::fileSize).sum()
                    + result.outputs().size() * 128L;
            long expectedNanos = bytes * 1_000_000_000L / rate;
            long jobWait = clock.slept - othersWait;
            assertEquals(expectedNanos, jobWait, (double) clock.sleeps); // ceil per sleep: at most 1 ns each
            assertEquals(jobWait, result.stats().throttledNanos());
            assertTrue(result.outputs().size() > 1);
        } finally {
            SegmentFiles.closeAll(inputs);
        }
    }
}
