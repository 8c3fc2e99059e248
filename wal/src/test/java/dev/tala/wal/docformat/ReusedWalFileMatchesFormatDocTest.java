package dev.tala.wal.docformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentId;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recycled WAL file: its header's ZERO_FILLED flag (twice) and the zeros after its records. */
class ReusedWalFileMatchesFormatDocTest {
    @TempDir
    Path dir;

    @Test
    void aReusedFileSaysZeroFilledAndHoldsZerosAfterItsRecords() throws Exception {
        Path walDir = dir.resolve("wal");
        try (WriteAheadLog log = WriteAheadLog.create(LocalFileLayer.INSTANCE, walDir, 1, 0, Durability.sync(), 1)) {
            for (int i = 0; i < 50; i++) {
                log.append(List.of(new WalOp.Delete(IntentId.of(1, i))));
            }
            log.rotate(2);
            Path first = walDir.resolve("00000000000000000001.wal");
            long firstLength = Files.size(first);
            log.retire(first);
            log.append(List.of(new WalOp.Delete(IntentId.of(2, 0))));
            // The zero-fill runs in the background; only a ready file is reused.
            Path ready = walDir.resolve("00000000000000000001.wal.ready");
            for (int i = 0; i < 1000 && !Files.exists(ready); i++) {
                Thread.sleep(10);
            }
            assertTrue(Files.exists(ready), "the retired file became ready for reuse");
            log.rotate(3);
            log.append(List.of(new WalOp.Delete(IntentId.of(3, 0))));
            log.sync();
            byte[] f = Files.readAllBytes(walDir.resolve("00000000000000000003.wal"));
            ByteBuffer le = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(1, f[6], "flags: ZERO_FILLED");
            assertEquals(1, f[7], "flags copy");
            assertEquals(3, le.getLong(8), "file number is the new name's");
            assertEquals(firstLength, f.length, "the file keeps the length of its previous life");
            int end = 16 + 21 + le.getInt(16);
            assertEquals(52, le.getLong(16 + 5), "the record's sequence");
            for (int i = end; i < f.length; i++) {
                assertEquals(0, f[i], "zero after the records at " + i);
            }
            assertTrue(end < f.length, "the test needs zeros after the record");
        }
    }
}
