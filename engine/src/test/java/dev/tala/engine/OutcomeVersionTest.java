package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tala.compaction.TieredPolicy;
import dev.tala.compaction.TieredSettings;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The version an outcome update makes reads back the same until it is replaced: across a
 * flush and across a restart, also when the intent's older version meanwhile moved into a
 * cold level, whose compaction re-encodes embeddings (both found by the LSM audit).
 */
class OutcomeVersionTest {
    @TempDir
    Path dir;

    private static final float[] EMBEDDING = {0.1f, 0.2f, 0.3f, 0.7f};

    /**
     * The WAL logged the update itself, and replay resolved it again, against the older version
     * as it was by then: re-encoded as int8, so a restart changed the floats get returned.
     */
    @Test
    void anOutcomeReadsTheSameAfterARestartWhenItsBaseWentColdMeanwhile() throws Exception {
        Options options = Options.builder().dimension(4).durability(Durability.sync()).memtableBytes(1 << 20)
                .compactionPolicy(new TieredPolicy(new TieredSettings(2, 8, 4.0, 6, 0.25)))
                .coldEmbeddingType(EmbeddingType.INT8, 1)
                .compactionBytesPerSecond(4096) // slow: the compaction is still running when the outcome comes
                .build();
        IntentId w = IntentId.of(1, 1);
        IntentId x = IntentId.of(2, 2);
        Optional<Intent> before;
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(Intent.builder().id(w).timestampNs(1).embedding(new float[] {1, 0, 0, 0}).build());
            db.flush();
            db.put(Intent.builder().id(x).timestampNs(2).embedding(EMBEDDING).build());
            db.flush(); // two runs: a background compaction into level 1 (int8) starts
            assumeTrue(db.liveSegments().stream().allMatch(m -> m.level() == 0),
                    "the cold compaction committed before the outcome could be attached");
            db.attachOutcome(x, Status.SUCCESS, new Outcome(5, 0));
            before = db.get(x);
            assertEquals(Status.SUCCESS, before.orElseThrow().status());
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (db.stats().compactions() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(db.liveSegments().stream().allMatch(m -> m.level() >= 1), "the cold compaction ran");
            assertEquals(before, db.get(x), "no change while open");
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            assertEquals(before, db.get(x), "the same acknowledged version before and after a restart");
        }
    }

    /** A log written before outcome updates were logged as puts holds outcome records: still replayed. */
    @Test
    void anOutcomeRecordOfAnOlderLogIsStillReplayed() throws Exception {
        Options options = Options.builder().dimension(4).durability(Durability.none()).backgroundCompaction(false)
                .build();
        IntentId x = IntentId.of(2, 2);
        long lastSequence;
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(Intent.builder().id(x).timestampNs(2).embedding(EMBEDDING).build());
            db.flush();
            lastSequence = db.stats().lastSequence();
        }
        // A file numbered past every file of the database, as the next log would be.
        long newest;
        try (var files = Stream.concat(Files.list(dir.resolve("wal")), Files.list(dir.resolve("segments")))) {
            newest = files.map(f -> f.getFileName().toString().replaceAll("\\D", ""))
                    .filter(digits -> !digits.isEmpty()).mapToLong(Long::parseLong).max().orElse(0);
        }
        try (WriteAheadLog older = WriteAheadLog.create(LocalFileLayer.INSTANCE, dir.resolve("wal"), newest + 10,
                lastSequence, Durability.sync())) {
            older.awaitDurable(older.append(List.of(new WalOp.AttachOutcome(x, Status.FAILURE, new Outcome(7, 3)))));
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            Intent replayed = db.get(x).orElseThrow();
            assertEquals(Status.FAILURE, replayed.status());
            assertEquals(new Outcome(7, 3), replayed.outcome());
            assertArrayEquals(EMBEDDING, replayed.embedding());
        }
    }

    /**
     * An f16 database with an int8 cold level: the update took the cold version's int8-decoded
     * floats, which f16 cannot hold, and the memtable kept them, so a flush changed them.
     */
    @Test
    void anOutcomeOfAColdIntentReadsTheSameAfterAFlush() {
        Options options = Options.builder().dimension(4).embeddingType(EmbeddingType.F16).durability(Durability.none())
                .backgroundCompaction(false).coldEmbeddingType(EmbeddingType.INT8, 1).build();
        IntentId x = IntentId.of(2, 2);
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(Intent.builder().id(x).timestampNs(2).embedding(EMBEDDING).build());
            db.compact(); // into level 1: int8
            db.attachOutcome(x, Status.SUCCESS, new Outcome(5, 0));
            Optional<Intent> before = db.get(x);
            db.flush();
            assertEquals(before, db.get(x), "a flush changed what get returns");
            db.close();
            try (TalaDB again = TalaDB.open(dir, options)) {
                assertEquals(before, again.get(x), "a reopen changed what get returns");
            }
        }
    }

    /**
     * An outcome update builds on the newest version logged, acknowledged or not: a put still
     * waiting for its WAL force is in the memtable but not yet visible, and an update that came
     * meanwhile and resolved against what readers see found no intent and was refused.
     */
    @Test
    void anOutcomeBuildsOnAPutLoggedButNotYetAcknowledged() throws Exception {
        CountDownLatch forceReached = new CountDownLatch(1);
        CountDownLatch releaseForce = new CountDownLatch(1);
        AtomicBoolean armed = new AtomicBoolean();
        ForwardingFileLayer held = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            protected void beforeForce(Path file) throws IOException {
                if (armed.get() && file.getFileName().toString().endsWith(".wal")) {
                    forceReached.countDown();
                    try {
                        releaseForce.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                }
            }
        };
        Options options = Options.builder().dimension(4).durability(Durability.sync()).backgroundCompaction(false)
                .fileLayer(held).build();
        IntentId x = IntentId.of(3, 3);
        // Threads of their own: the common pool may have a single one, which the held put takes.
        try (TalaDB db = TalaDB.open(dir, options); ExecutorService writers = Executors.newFixedThreadPool(2)) {
            armed.set(true);
            Future<Long> put;
            Future<Long> outcome;
            try {
                put = writers.submit(() -> db.put(Intent.builder().id(x).timestampNs(3).embedding(EMBEDDING).build()));
                assertTrue(forceReached.await(30, TimeUnit.SECONDS), "the put's WAL force began");
                assertFalse(db.get(x).isPresent(), "not visible while its force is held");
                outcome = writers.submit(() -> db.attachOutcome(x, Status.SUCCESS, new Outcome(9, 0)));
                // It resolves under the mutex, then waits for the held force; a wrong resolution fails at once.
                long deadline = System.nanoTime() + 2_000_000_000L;
                while (!outcome.isDone() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } finally {
                armed.set(false);
                releaseForce.countDown();
            }
            put.get(30, TimeUnit.SECONDS);
            outcome.get(30, TimeUnit.SECONDS);
            Intent read = db.get(x).orElseThrow();
            assertEquals(Status.SUCCESS, read.status());
            assertEquals(new Outcome(9, 0), read.outcome());
        }
    }
}
