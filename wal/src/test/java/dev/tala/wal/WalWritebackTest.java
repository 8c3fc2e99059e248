package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log that does not force every write starts writeback of each file a step at a time, so that
 * the force at a memtable switch has little left to write; a SYNC log, whose forces write
 * everything anyway, does not.
 */
class WalWritebackTest {
    @TempDir
    Path dir;

    /** Every writeback asked of the real file layer, as (file, from, to). */
    private static final class Hints extends ForwardingFileLayer {
        final List<Object[]> calls = new CopyOnWriteArrayList<>();

        Hints() {
            super(LocalFileLayer.INSTANCE);
        }

        @Override
        public boolean startWriteback(Path file, long position, long length) throws IOException {
            calls.add(new Object[] {file, position, position + length});
            return super.startWriteback(file, position, length);
        }
    }

    @Test
    void eachStepOfAFileIsHandedToWritebackInOrderAndSyncLogsAskNothing() throws Exception {
        for (Durability durability : List.of(Durability.none(), Durability.batch(Duration.ofSeconds(60)),
                Durability.sync())) {
            Hints fs = new Hints();
            Path walDir = dir.resolve(durability.mode().name());
            long written;
            try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, durability)) {
                appendAbout(wal, 3 * WalWriteback.STEP_BYTES + 16_384, 1); // each step may end up to a record late
                written = Files.size(walDir.resolve(DatabaseLayout.walFileName(1)));
                wal.rotate(2);
                appendAbout(wal, WalWriteback.STEP_BYTES + 16_384, 2);
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (fs.calls.size() < (durability.mode() == Durability.Mode.SYNC ? 0 : 4)
                        && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
            }
            if (durability.mode() == Durability.Mode.SYNC) {
                assertEquals(0, fs.calls.size(), "a SYNC log forces every write and asks for no writeback");
                continue;
            }
            assertEquals(4, fs.calls.size(), durability + ": three steps of the first file, one of the second");
            long from = WalFormat.FILE_HEADER_BYTES;
            for (int i = 0; i < 4; i++) {
                Object[] call = fs.calls.get(i);
                Path expected = walDir.resolve(DatabaseLayout.walFileName(i < 3 ? 1 : 2));
                assertEquals(expected, call[0], "call " + i);
                if (i == 3) {
                    from = WalFormat.FILE_HEADER_BYTES;
                }
                assertEquals(from, (long) call[1], "call " + i + " starts where the last one ended");
                long to = (long) call[2];
                assertTrue(to - from >= WalWriteback.STEP_BYTES, "call " + i + " covers a whole step");
                assertTrue(i == 3 || to <= written, "call " + i + " covers only written bytes");
                from = to;
            }
        }
    }

    /** Appends records of about 1.6 KB until {@code bytes} are logged, each handed to the OS. */
    private static void appendAbout(WriteAheadLog wal, long bytes, long seed) {
        RandomIntents gen = new RandomIntents(seed, 384);
        long logged = wal.stats().bytesLogged();
        while (wal.stats().bytesLogged() - logged < bytes) {
            long s = wal.append(List.of(new WalOp.Put(gen.next())));
            wal.awaitDurable(s);
        }
    }
}
