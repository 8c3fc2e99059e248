package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionProgress;
import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.SearchFilter;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * close() racing with readers (gets, scans, searches, graph queries, stats, held
 * snapshots), writers, flushes and manual compactions. Every call either answers correctly or
 * throws DatabaseClosedException; a snapshot taken before close keeps answering the same; after
 * close and the snapshots' close, nothing of the directory stays mapped.
 */
class CloseRaceTest {
    static final int DIM = 8;
    static final int FIXED = 300;

    @TempDir
    Path root;

    static Intent intent(IntentId id, IntentId next, int i) {
        float[] v = new float[DIM];
        v[i % DIM] = 1f;
        v[(i + 3) % DIM] = 0.25f;
        return Intent.builder().id(id).timestampNs(1_000L + i).command("fixed-" + i).confidence(0.5f)
                .status(Status.PENDING).embedding(v).addEdge(next, Relation.CAUSAL, 1f).build();
    }

    @Test
    void closeRacingWithEveryKindOfCall() throws Exception {
        AtomicLong answered = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        for (int round = 0; round < 12; round++) {
            Path dir = root.resolve("db" + round);
            Options options = Options.builder().dimension(DIM).memtableBytes(4096).durability(Durability.none())
                    .build();
            Random random = new Random(round);
            IntentId[] fixed = new IntentId[FIXED];
            for (int i = 0; i < FIXED; i++) {
                fixed[i] = IntentId.of(random.nextLong(), random.nextLong());
            }
            TalaDB db = TalaDB.open(dir, options);
            for (int i = 0; i < FIXED; i++) {
                db.put(intent(fixed[i], fixed[(i + 1) % FIXED], i));
            }
            Snapshot held = db.snapshot();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 5; t++) {
                final int kind = t;
                threads.add(Thread.ofPlatform().name("caller-" + t).start(() -> {
                    Random r = new Random(kind);
                    while (!stop.get()) {
                        try {
                            int i = r.nextInt(FIXED);
                            switch (kind) {
                                case 0 -> {
                                    // writer: unrelated ids, so the fixed ones stay as they are
                                    db.put(intent(IntentId.of(r.nextLong(), r.nextLong()), fixed[i], FIXED + i));
                                    if (r.nextInt(50) == 0) {
                                        db.flush();
                                    }
                                }
                                case 1 -> {
                                    Optional<Intent> x = db.get(fixed[i]);
                                    if (!x.equals(Optional.of(intent(fixed[i], fixed[(i + 1) % FIXED], i)))) {
                                        throw new AssertionError("get " + i + " returned " + x);
                                    }
                                    if (db.scan(1_000, 1_000 + FIXED, FIXED + 10).size() != FIXED) {
                                        throw new AssertionError("scan lost fixed intents");
                                    }
                                }
                                case 2 -> {
                                    var hits = db.search(intent(fixed[i], fixed[i], i).embedding(), 5,
                                            new SearchFilter(1_000, 1_000 + FIXED, java.util.EnumSet.allOf(Status.class), 0f));
                                    if (hits.size() != 5) {
                                        throw new AssertionError("search returned " + hits.size());
                                    }
                                    if (db.traverse(fixed[i], 4, Set.of(), Direction.OUTGOING).size() != 4) {
                                        throw new AssertionError("traverse wrong");
                                    }
                                    if (db.edgesTo(fixed[i]).isEmpty()) {
                                        throw new AssertionError("edgesTo wrong");
                                    }
                                }
                                case 3 -> {
                                    if (r.nextBoolean()) {
                                        db.compact(CompactionProgress.Listener.NONE);
                                    } else {
                                        db.stats();
                                    }
                                }
                                default -> {
                                    try (Snapshot s = db.snapshot()) {
                                        long n = s.countIntents();
                                        if (n < FIXED) {
                                            throw new AssertionError("count " + n);
                                        }
                                        s.search(intent(fixed[i], fixed[i], i).embedding(), 3, SearchFilter.ALL);
                                    }
                                }
                            }
                            answered.incrementAndGet();
                        } catch (DatabaseClosedException e) {
                            refused.incrementAndGet();
                            return;
                        } catch (Throwable e) {
                            errors.add(e);
                            return;
                        }
                    }
                }));
            }
            Thread.sleep(100 + random.nextInt(200));
            db.close();
            // The held snapshot still reads what it read.
            for (int i = 0; i < FIXED; i += 37) {
                assertEquals(Optional.of(intent(fixed[i], fixed[(i + 1) % FIXED], i)), held.get(fixed[i]));
            }
            assertEquals(FIXED, held.countIntents());
            stop.set(true);
            for (Thread t : threads) {
                t.join(20_000);
                assertTrue(!t.isAlive(), t.getName() + " hangs after close");
            }
            held.close();
            if (!errors.isEmpty()) {
                AssertionError failure = new AssertionError("round " + round + ": " + errors.peek());
                errors.forEach(failure::addSuppressed);
                throw failure;
            }
            assertEquals(List.of(), mappingsOf(dir), "round " + round + ": files still mapped after close");
        }
        System.out.println("close race: " + answered.get() + " answered, " + refused.get() + " refused");
    }

    private static List<String> mappingsOf(Path dir) throws IOException {
        Path maps = Path.of("/proc/self/maps");
        if (!Files.exists(maps)) {
            return List.of();
        }
        String r = dir.toRealPath().toString();
        return Files.readAllLines(maps).stream().filter(l -> l.contains(r)).toList();
    }
}
