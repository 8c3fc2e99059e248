package dev.tala.wal.docformat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.wal.Durability;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Decodes a WAL file the public writer made with nothing but docs/FORMAT.md ("Write-ahead log"). */
class WalWriterMatchesFormatDocTest {
    @TempDir
    Path dir;

    static final IntentId A = IntentId.of(0x0102030405060708L, 0x090A0B0C0D0E0F10L);
    static final IntentId B = IntentId.of(0xF0E0D0C0B0A09080L, 0x7060504030201000L);

    static Intent intent(IntentId id, Outcome outcome, String command, List<Edge> edges) {
        return Intent.builder().id(id).timestampNs(1_700_000_000_000_000_123L).contextHash(0xABCDEF0123456789L)
                .confidence(0.625f).status(Status.PARTIAL).outcome(outcome).command(command)
                .embedding(new float[] {1.5f, -2.25f, 0f}).edges(edges).build();
    }

    static int crc32c(byte[] b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b, from, to - from);
        return (int) c.getValue();
    }

    /** Reads fields from the payload in the order FORMAT.md's grammar lists them. */
    static final class Cursor {
        final ByteBuffer b;

        Cursor(byte[] bytes, int from, int to) {
            b = ByteBuffer.wrap(bytes, from, to - from).order(ByteOrder.LITTLE_ENDIAN);
        }

        IntentId id() {
            long hi = b.order(ByteOrder.BIG_ENDIAN).getLong();
            long lo = b.getLong();
            b.order(ByteOrder.LITTLE_ENDIAN);
            return IntentId.of(hi, lo);
        }
    }

    static void expectPut(Cursor c, Intent in, String where) {
        assertEquals(in.id(), c.id(), where + "id");
        assertEquals(in.timestampNs(), c.b.getLong(), where + "timestamp");
        assertEquals(in.contextHash(), c.b.getLong(), where + "context_hash");
        assertEquals(in.confidence(), c.b.getFloat(), where + "confidence");
        assertEquals(in.status().ordinal(), c.b.get(), where + "status");
        assertEquals(in.outcome() == null ? 0 : 1, c.b.get(), where + "has_outcome");
        if (in.outcome() != null) {
            assertEquals(in.outcome().latencyNs(), c.b.getLong(), where + "latency");
            assertEquals(in.outcome().exitCode(), c.b.getInt(), where + "exit_code");
        }
        byte[] cmd = in.command().getBytes(StandardCharsets.UTF_8);
        assertEquals(cmd.length, c.b.getInt(), where + "command_length");
        byte[] got = new byte[cmd.length];
        c.b.get(got);
        assertArrayEquals(cmd, got, where + "command");
        assertEquals(in.dimension(), c.b.getInt(), where + "dim");
        for (int i = 0; i < in.dimension(); i++) {
            assertEquals(in.embedding(i), c.b.getFloat(), where + "x" + i);
        }
        assertEquals(in.edges().size(), c.b.getInt(), where + "edge_count");
        for (Edge e : in.edges()) {
            assertEquals(e.target(), c.id(), where + "edge target");
            assertEquals(e.relation().ordinal(), c.b.get(), where + "edge relation");
            assertEquals(e.weight(), c.b.getFloat(), where + "edge weight");
        }
    }

    @Test
    void headerRecordsAndPayloadsFollowTheDoc() throws Exception {
        Intent withOutcome = intent(A, new Outcome(12_345, -3), "échø ok", List.of(
                new Edge(B, Relation.BRANCH, 0.5f), new Edge(A, Relation.RETRY, -1f)));
        Intent plain = intent(B, null, "", List.of());
        Path walDir = dir.resolve("wal");
        try (WriteAheadLog log = WriteAheadLog.create(LocalFileLayer.INSTANCE, walDir, 7, 41, Durability.sync())) {
            log.append(List.of(new WalOp.Put(withOutcome)));
            log.append(List.of(new WalOp.Delete(B)));
            log.append(List.of(new WalOp.Put(plain), new WalOp.Delete(A), new WalOp.Put(withOutcome)));
        }
        byte[] f = Files.readAllBytes(walDir.resolve("00000000000000000007.wal"));
        ByteBuffer le = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals("TWAL".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(f, 4), "magic");
        assertEquals(1, le.getShort(4), "version");
        assertEquals(0, f[6], "flags (a new file is not ZERO_FILLED)");
        assertEquals(f[6], f[7], "flags copy");
        assertEquals(7, le.getLong(8), "file number");

        int at = 16;
        long[] sequences = {42, 43, 44};
        int[] types = {1, 2, 4};
        for (int r = 0; r < 3; r++) {
            String where = "record " + r + ": ";
            int length = le.getInt(at);
            assertEquals(types[r], f[at + 4], where + "type");
            assertEquals(sequences[r], le.getLong(at + 5), where + "sequence");
            int payload = at + 21;
            byte[] covered = new byte[9 + length];
            System.arraycopy(f, at + 4, covered, 0, 9);
            System.arraycopy(f, payload, covered, 9, length);
            assertEquals(crc32c(covered, 0, covered.length), le.getInt(at + 13), where + "crc");
            assertEquals(crc32c(f, at, at + 17), le.getInt(at + 17), where + "header_crc");
            Cursor c = new Cursor(f, payload, payload + length);
            switch (r) {
                case 0 -> expectPut(c, withOutcome, where);
                case 1 -> assertEquals(B, c.id(), where + "delete id");
                default -> {
                    assertEquals(3, c.b.getInt(), where + "op_count");
                    assertEquals(1, c.b.get(), where + "op 0 type");
                    expectPut(c, plain, where + "op 0 ");
                    assertEquals(2, c.b.get(), where + "op 1 type");
                    assertEquals(A, c.id(), where + "op 1 id");
                    assertEquals(1, c.b.get(), where + "op 2 type");
                    expectPut(c, withOutcome, where + "op 2 ");
                }
            }
            assertEquals(payload + length, c.b.position(), where + "payload fully consumed");
            at = payload + length;
        }
        assertEquals(f.length, at, "nothing after the last record");
    }

    @Test
    void aZeroHeaderFailsItsChecksum() {
        // FORMAT.md leans on this value to say replay never searches past the last non-zero byte.
        assertEquals(0xdaeda3e9, crc32c(new byte[17], 0, 17));
    }
}
