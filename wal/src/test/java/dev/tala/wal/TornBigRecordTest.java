package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.testing.RandomIntents;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A torn tail whose last write held a big record: the sector of the record before it reads as
 * zeros, and the big record's header survived with part of its payload, claiming more than the
 * file holds. That is a torn tail; the cap on the search for intact records (which counts only
 * payloads it would read) must not turn it into corruption.
 */
class TornBigRecordTest {
    final FileLayer fs = LocalFileLayer.INSTANCE;
    @TempDir
    Path dir;

    @Test
    void lostSectorBeforeAHalfWrittenBigRecordIsATornTail() throws Exception {
        Path walDir = dir.resolve("wal");
        RandomIntents gen = new RandomIntents(1, WalTestSupport.DIM);
        List<Long> ends = new ArrayList<>();
        long nextSeq = 0;
        try (WriteAheadLog wal = WriteAheadLog.create(fs, walDir, 1, 0, Durability.sync())) {
            for (int i = 0; i < 4; i++) {
                List<WalOp> ops = WalTestSupport.randomOps(gen);
                long first = wal.append(ops);
                wal.awaitDurable(first + ops.size() - 1);
                nextSeq = first + ops.size();
                ends.add(Files.size(walDir.resolve(DatabaseLayout.walFileName(1))));
            }
        }
        Path file = walDir.resolve(DatabaseLayout.walFileName(1));
        byte[] full = Files.readAllBytes(file);
        int lastStart = (int) (long) ends.get(2);
        // The last record A lost a sector of its payload (zeros)...
        byte[] torn = Arrays.copyOf(full, full.length + WalFormat.RECORD_HEADER_BYTES + 4096);
        int zeroFrom = lastStart + WalFormat.RECORD_HEADER_BYTES;
        Arrays.fill(torn, zeroFrom, full.length, (byte) 0);
        // ...while the header of the big record B written with it (2 MiB batch) and its first page reached the disk.
        ByteBuffer w = ByteBuffer.wrap(torn).order(ByteOrder.LITTLE_ENDIAN);
        int at = full.length;
        w.putInt(at + WalFormat.LENGTH_OFFSET, 2 << 20);
        w.put(at + WalFormat.TYPE_OFFSET, WalFormat.TYPE_BATCH);
        w.putLong(at + WalFormat.SEQUENCE_OFFSET, nextSeq);
        w.putInt(at + WalFormat.CRC_OFFSET, 0x1234);
        w.putInt(at + WalFormat.HEADER_CRC_OFFSET, Crc32c.of(torn, at, WalFormat.HEADER_CRC_OFFSET));
        for (int i = at + WalFormat.RECORD_HEADER_BYTES; i < torn.length; i++) {
            torn[i] = (byte) i;
        }
        Files.write(file, torn);
        List<WalRecord> replayed = new ArrayList<>();
        ReplayReport report = WalReplayer.replay(fs, List.of(file), 0, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL,
                replayed::add);
        assertEquals(3, replayed.size());
        assertEquals(torn.length - lastStart, report.droppedTailBytes());
    }
}
