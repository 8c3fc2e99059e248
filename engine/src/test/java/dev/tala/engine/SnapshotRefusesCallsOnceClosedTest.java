package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.error.DatabaseClosedException;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * close() refuses later calls at once, even while a call in progress still holds the view: the
 * hold count alone is above 0 then, so only the closed flag tells a new call to stop.
 */
class SnapshotRefusesCallsOnceClosedTest {
    private static final int DIM = 4;

    @TempDir
    Path dir;

    @Test
    void aCallMadeAfterCloseIsRefusedWhileAnotherCallStillHoldsTheView() {
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(DIM).durability(Durability.none()).build())) {
            RandomIntents gen = new RandomIntents(5, DIM);
            List<Intent> put = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Intent intent = gen.next();
                db.put(intent);
                put.add(intent);
            }
            Snapshot s = db.snapshot();
            List<Throwable> inside = new ArrayList<>();
            long returned = s.scan(0, Long.MAX_VALUE, i -> {
                s.close();
                try {
                    s.get(put.getFirst().id());
                    inside.add(null);
                } catch (Throwable t) {
                    inside.add(t);
                }
                return true;
            });
            assertEquals(3, returned, "the scan in progress finishes");
            assertEquals(3, inside.size());
            for (Throwable t : inside) {
                assertEquals(DatabaseClosedException.class, t == null ? null : t.getClass(),
                        "a get after close answered through the closed snapshot");
            }
            assertThrows(DatabaseClosedException.class, () -> s.countIntents());
        }
    }
}
