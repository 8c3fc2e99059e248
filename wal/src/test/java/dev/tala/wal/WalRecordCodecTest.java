package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/** The record encoding, byte for byte against docs/FORMAT.md, and against its own decoder. */
class WalRecordCodecTest {

    /**
     * A batch of a put (with an outcome, a multi-byte command and two edges), a delete and an
     * outcome update, assembled here field by field from FORMAT.md's WAL section with a plain
     * ByteBuffer, must be what the codec writes.
     */
    @Test
    void aBatchIsLaidOutAsFormatMdSays() {
        IntentId id = IntentId.of(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
        IntentId target = IntentId.of(-1L, 42L);
        Intent put = Intent.builder()
                .id(id)
                .timestampNs(1_700_000_000_123L)
                .contextHash(0xCAFEBABE12345678L)
                .confidence(0.25f)
                .status(Status.FAILURE)
                .outcome(new Outcome(987_654L, -3))
                .command("déploie ☃")
                .embedding(new float[] {1.5f, -0.0f, Float.MIN_VALUE})
                .addEdge(target, Relation.RETRY, 0.5f)
                .addEdge(id, Relation.CAUSAL, 1.0f)
                .build();
        List<WalOp> ops = List.of(new WalOp.Put(put), new WalOp.Delete(target),
                new WalOp.AttachOutcome(id, Status.SUCCESS, null));

        ByteBuffer payload = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
        payload.putInt(3);
        payload.put(WalFormat.TYPE_PUT);
        putBigEndianId(payload, id);
        payload.putLong(1_700_000_000_123L).putLong(0xCAFEBABE12345678L).putFloat(0.25f)
                .put(Status.FAILURE.code()).put((byte) 1).putLong(987_654L).putInt(-3);
        byte[] command = "déploie ☃".getBytes(StandardCharsets.UTF_8);
        payload.putInt(command.length).put(command);
        payload.putInt(3).putFloat(1.5f).putFloat(-0.0f).putFloat(Float.MIN_VALUE);
        payload.putInt(2);
        putBigEndianId(payload, target);
        payload.put(Relation.RETRY.code()).putFloat(0.5f);
        putBigEndianId(payload, id);
        payload.put(Relation.CAUSAL.code()).putFloat(1.0f);
        payload.put(WalFormat.TYPE_DELETE);
        putBigEndianId(payload, target);
        payload.put(WalFormat.TYPE_OUTCOME);
        putBigEndianId(payload, id);
        payload.put(Status.SUCCESS.code()).put((byte) 0);
        payload.flip();

        long sequence = 0x1122334455667788L;
        ByteBuffer expected = ByteBuffer.allocate(21 + payload.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        expected.putInt(payload.remaining()).put(WalFormat.TYPE_BATCH).putLong(sequence);
        CRC32C crc = new CRC32C();
        crc.update(expected.array(), 4, 9);
        crc.update(payload.duplicate());
        expected.putInt((int) crc.getValue());
        CRC32C headerCrc = new CRC32C();
        headerCrc.update(expected.array(), 0, 17);
        expected.putInt((int) headerCrc.getValue());
        expected.put(payload);

        Bytes<ByteBuffer> out = Bytes.elasticByteBuffer(64);
        try {
            int written = WalRecordCodec.encode(new WalRecord(sequence, ops), out);
            assertEquals(expected.capacity(), written);
            assertArrayEquals(expected.array(), bytes(out, 0, written));
        } finally {
            out.releaseLast();
        }
    }

    private static void putBigEndianId(ByteBuffer b, IntentId id) {
        b.order(ByteOrder.BIG_ENDIAN).putLong(id.mostSignificantBits()).putLong(id.leastSignificantBits())
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Records appended one after another into a buffer that starts small (so it grows under
     * them) each start where the one before ended, leave the bytes before them alone, and decode
     * to the ops they were made from.
     */
    @Property(tries = 50)
    void recordsAppendedBackToBackDecodeToTheirOps(@ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int records,
            @ForAll @IntRange(min = 1, max = 600) int dimension) throws Exception {
        RandomIntents gen = new RandomIntents(seed, dimension);
        Bytes<ByteBuffer> out = Bytes.elasticByteBuffer(32);
        try {
            List<WalRecord> logged = new ArrayList<>();
            List<Long> starts = new ArrayList<>();
            long sequence = 1;
            for (int i = 0; i < records; i++) {
                WalRecord record = new WalRecord(sequence, WalTestSupport.randomOps(gen));
                long start = out.writePosition();
                byte[] before = bytes(out, 0, (int) start);
                int written = WalRecordCodec.encode(record, out);
                assertEquals(start + written, out.writePosition());
                assertArrayEquals(before, bytes(out, 0, (int) start), "bytes before record " + i);
                logged.add(record);
                starts.add(start);
                sequence = record.lastSequence() + 1;
            }
            MemorySegment all = MemorySegment.ofArray(bytes(out, 0, (int) out.writePosition()));
            for (int i = 0; i < records; i++) {
                long at = starts.get(i);
                ByteBuffer header = all.asSlice(at, WalFormat.RECORD_HEADER_BYTES).asByteBuffer()
                        .order(ByteOrder.LITTLE_ENDIAN);
                int length = header.getInt(WalFormat.LENGTH_OFFSET);
                assertEquals(logged.get(i).firstSequence(), header.getLong(WalFormat.SEQUENCE_OFFSET));
                List<WalOp> decoded = WalRecordCodec.decodePayload(header.get(WalFormat.TYPE_OFFSET),
                        all.asSlice(at + WalFormat.RECORD_HEADER_BYTES, length));
                assertEquals(logged.get(i).ops(), decoded, "record " + i);
            }
        } finally {
            out.releaseLast();
        }
    }

    private static byte[] bytes(Bytes<ByteBuffer> out, int from, int length) {
        byte[] copy = new byte[length];
        out.underlyingObject().get(from, copy);
        return copy;
    }
}
