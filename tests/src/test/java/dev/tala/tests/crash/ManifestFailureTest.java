package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush's MANIFEST edit hits a full disk half-way while a compaction is running; the space
 * comes back before the compaction commits. Its edit must not follow the torn one: the
 * database would then not open (an intact edit after damage is corruption, not a torn tail).
 */
class ManifestFailureTest {
    static final int DIM = 8;

    @TempDir
    Path work;

    @Test
    void aCompactionDoesNotAppendAfterAFailedManifestEdit() throws Exception {
        Path dir = work.resolve("db");
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(work.resolve("stash"));
        AtomicBoolean fillTheDisk = new AtomicBoolean();
        ForwardingFileLayer fs = new ForwardingFileLayer(fault) {
            @Override
            protected void beforeWrite(Path file, long bytes) {
                if (file.getFileName().toString().startsWith("MANIFEST") && fillTheDisk.compareAndSet(true, false)) {
                    fault.diskFullAfter(bytes / 2);
                }
            }
        };
        Options options = Options.builder().dimension(DIM).durability(Durability.sync()).backgroundCompaction(false)
                .build();
        TalaDB db = TalaDB.open(dir, options.toBuilder().fileLayer(fs).build());
        RandomIntents gen = new RandomIntents(3, DIM);
        List<Intent> written = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            written.add(gen.next());
        }
        written.forEach(db::put);
        db.flush();
        // New versions of the same ids: the compaction merges rather than moves.
        for (int i = 0; i < 50; i++) {
            Intent newer = gen.next(written.get(i).id());
            db.put(newer);
            written.set(i, newer);
        }
        db.flush();

        CountDownLatch compactionRunning = new CountDownLatch(1);
        CountDownLatch flushFailed = new CountDownLatch(1);
        AtomicReference<Throwable> compactionError = new AtomicReference<>();
        Thread compaction = Thread.ofPlatform().start(() -> {
            try {
                db.compact(progress -> {
                    compactionRunning.countDown();
                    try {
                        flushFailed.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            } catch (Throwable t) {
                compactionError.set(t);
            }
        });
        compactionRunning.await();
        for (int i = 0; i < 10; i++) {
            Intent x = gen.next();
            db.put(x);
            written.add(x);
        }
        fillTheDisk.set(true);
        assertThrows(RuntimeException.class, db::flush);
        fault.clearDiskFull();
        flushFailed.countDown();
        compaction.join();
        assertNotNull(compactionError.get(), "the compaction committed after the failed edit");
        try {
            db.close();
        } catch (RuntimeException e) {
            // the database had failed
        }
        try (TalaDB again = TalaDB.open(dir, options.toBuilder().fileLayer(LocalFileLayer.INSTANCE).build())) {
            for (Intent x : written) {
                assertEquals(Optional.of(x), again.get(x.id()));
            }
        }
    }
}
