package dev.tala.wal.docformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentId;
import dev.tala.wal.ReplayReport;
import dev.tala.wal.WalRecord;
import dev.tala.wal.WalRecoveryMode;
import dev.tala.wal.WalReplayer;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FORMAT.md's promises about what replay accepts, on WAL files built by hand from the doc. */
class WalReaderClaimsTest {
    @TempDir
    Path dir;

    static byte[] header(int flags, int flagsCopy, long number) {
        return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).put("TWAL".getBytes())
                .putShort((short) 1).put((byte) flags).put((byte) flagsCopy).putLong(number).array();
    }

    static byte[] record(int type, long sequence, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(21 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(payload.length).put((byte) type).putLong(sequence);
        byte[] covered = new byte[9 + payload.length];
        System.arraycopy(b.array(), 4, covered, 0, 9);
        System.arraycopy(payload, 0, covered, 9, payload.length);
        b.putInt(WalWriterMatchesFormatDocTest.crc32c(covered, 0, covered.length));
        b.putInt(WalWriterMatchesFormatDocTest.crc32c(b.array(), 0, 17));
        b.put(payload);
        return b.array();
    }

    static byte[] deletePayload(long low) {
        return IntentId.of(0x1234, low).toBytes();
    }

    Path file(long number, byte[]... parts) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        Path walDir = dir.resolve("wal");
        Files.createDirectories(walDir);
        Path p = walDir.resolve(String.format("%020d.wal", number));
        Files.write(p, out.toByteArray());
        return p;
    }

    static List<WalRecord> replay(Path p) {
        List<WalRecord> out = new ArrayList<>();
        WalReplayer.replay(LocalFileLayer.INSTANCE, List.of(p), 0, WalRecoveryMode.TOLERATE_CORRUPTED_TAIL, out::add);
        return out;
    }

    @Test
    void aHandBuiltFileReplays() throws Exception {
        Path p = file(5, header(0, 0, 5), record(2, 1, deletePayload(1)), record(2, 2, deletePayload(2)));
        assertEquals(2, replay(p).size());
    }

    @Test
    void flagBytesThatDifferAreRejected() throws Exception {
        Path p = file(5, header(1, 0, 5), record(2, 1, deletePayload(1)));
        assertThrows(CorruptionException.class, () -> replay(p));
    }

    @Test
    void aFlagBitOtherThanZeroFilledIsRejected() throws Exception {
        Path p = file(5, header(2, 2, 5), record(2, 1, deletePayload(1)));
        assertThrows(CorruptionException.class, () -> replay(p));
    }

    @Test
    void aFileNumberOtherThanTheNamesIsRejected() throws Exception {
        Path p = file(5, header(0, 0, 6), record(2, 1, deletePayload(1)));
        assertThrows(CorruptionException.class, () -> replay(p));
    }

    @Test
    void anEmptyBatchFollowedByAnIntactRecordIsCorruption() throws Exception {
        byte[] empty = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0).array();
        Path p = file(5, header(0, 0, 5), record(4, 1, empty), record(2, 1, deletePayload(2)));
        assertThrows(CorruptionException.class, () -> replay(p));
    }

    @Test
    void aNestedBatchFollowedByAnIntactRecordIsCorruption() throws Exception {
        byte[] inner = ByteBuffer.allocate(4 + 1 + 16).order(ByteOrder.LITTLE_ENDIAN).putInt(1).put((byte) 2)
                .put(deletePayload(1)).array();
        byte[] outer = ByteBuffer.allocate(4 + 1 + inner.length).order(ByteOrder.LITTLE_ENDIAN).putInt(1)
                .put((byte) 4).put(inner).array();
        Path p = file(5, header(0, 0, 5), record(4, 1, outer), record(2, 2, deletePayload(2)));
        assertThrows(CorruptionException.class, () -> replay(p));
    }

    @Test
    void aSequenceHoleIsAnErrorInTheDefaultMode() throws Exception {
        Path p = file(5, header(0, 0, 5), record(2, 1, deletePayload(1)), record(2, 3, deletePayload(3)));
        assertThrows(CorruptionException.class, () -> replay(p));
    }

    @Test
    void zerosAfterTheRecordsOfAZeroFilledFileAreItsEndNotATornTail() throws Exception {
        Path p = file(5, header(1, 1, 5), record(2, 1, deletePayload(1)), new byte[8192]);
        List<WalRecord> out = new ArrayList<>();
        ReplayReport report = WalReplayer.replay(LocalFileLayer.INSTANCE, List.of(p), 0,
                WalRecoveryMode.ABSOLUTE_CONSISTENCY, out::add);
        assertEquals(1, out.size());
        assertEquals(0, report.droppedTailBytes());
        assertTrue(report.isClean(), report.toString());
    }

    @Test
    void aStaleByteAfterTheZerosOfAZeroFilledFileIsDamage() throws Exception {
        byte[] tail = new byte[8192];
        tail[5000] = 9;
        Path p = file(5, header(1, 1, 5), record(2, 1, deletePayload(1)), tail);
        assertThrows(CorruptionException.class, () -> WalReplayer.replay(LocalFileLayer.INSTANCE, List.of(p), 0,
                WalRecoveryMode.ABSOLUTE_CONSISTENCY, r -> { }));
    }
}
