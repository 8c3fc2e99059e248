package dev.tala.wal;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import net.openhft.chronicle.bytes.Bytes;

/**
 * Encodes records into a chronicle-bytes buffer and decodes them from a mapped WAL file.
 * Payload layouts (all little-endian, ids as 16 big-endian bytes):
 * <pre>
 * put     := id | u64 timestamp | u64 context_hash | f32 confidence | u8 status | u8 has_outcome
 *            [u64 latency_ns | i32 exit_code] | u32 command_len | command utf-8
 *            | u32 dim | f32 * dim | u32 edge_count | (id | u8 relation | f32 weight) * edge_count
 * delete  := id
 * outcome := id | u8 status | u8 has_outcome [u64 latency_ns | i32 exit_code]
 * batch   := u32 op_count | (u8 type | put-or-delete-or-outcome) * op_count
 * </pre>
 */
public final class WalRecordCodec {
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private WalRecordCodec() {
    }

    /**
     * Appends one framed record to {@code out} at its write position.
     *
     * @return the number of bytes appended
     * @throws InvalidIntentException if the payload exceeds {@link WalFormat#MAX_PAYLOAD_BYTES}
     */
    public static int encode(WalRecord record, Bytes<ByteBuffer> out) {
        long start = out.writePosition();
        long payloadStart;
        try {
            out.writeInt(0); // payload length, patched below
            out.writeByte(record.type());
            out.writeLong(record.firstSequence());
            out.writeInt(0); // crc
            out.writeInt(0); // header crc
            payloadStart = out.writePosition();
            if (record.ops().size() > 1) {
                out.writeInt(record.ops().size());
                for (WalOp op : record.ops()) {
                    out.writeByte(WalRecord.typeOf(op));
                    encodeOp(op, out);
                    // Checked as it grows: one op is at most about a megabyte, so the buffer
                    // never grows far past the limit, however many ops the batch holds.
                    checkLimit(out.writePosition() - payloadStart, record.ops().size());
                }
            } else {
                encodeOp(record.ops().getFirst(), out);
            }
            checkLimit(out.writePosition() - payloadStart, record.ops().size());
        } catch (RuntimeException | Error e) {
            // Whatever stopped the encoding (the limit, or no memory to grow the buffer), the
            // bytes after start are half a record: the next append and the leader's write must
            // not see them, or the log would hold a record no replay can read past.
            out.writePosition(start);
            throw e;
        }
        long payloadLength = out.writePosition() - payloadStart;
        out.writeInt(start + WalFormat.LENGTH_OFFSET, (int) payloadLength);
        ByteBuffer view = out.underlyingObject();
        CRC32C crc = new CRC32C();
        update(crc, view, start + WalFormat.TYPE_OFFSET, 9);
        update(crc, view, payloadStart, payloadLength);
        out.writeInt(start + WalFormat.CRC_OFFSET, (int) crc.getValue());
        crc.reset();
        update(crc, view, start, WalFormat.HEADER_CRC_OFFSET);
        out.writeInt(start + WalFormat.HEADER_CRC_OFFSET, (int) crc.getValue());
        return (int) (out.writePosition() - start);
    }

    private static void checkLimit(long payloadBytes, int ops) {
        if (payloadBytes > WalFormat.MAX_PAYLOAD_BYTES) {
            throw new InvalidIntentException("batch", "its " + ops + " operations encode to more than "
                    + WalFormat.MAX_PAYLOAD_BYTES + " bytes (" + payloadBytes + " so far), the limit for one atomic write");
        }
    }

    /**
     * Adds {@code length} bytes of {@code buffer} from {@code offset} to {@code crc} by moving the
     * buffer's window there and back (chronicle-bytes addresses it directly and ignores the
     * window), where a slice would be one more object per checksum of every append.
     */
    private static void update(CRC32C crc, ByteBuffer buffer, long offset, long length) {
        int position = buffer.position();
        int limit = buffer.limit();
        buffer.limit((int) (offset + length)).position((int) offset);
        crc.update(buffer);
        buffer.limit(limit).position(position);
    }

    private static void encodeOp(WalOp op, Bytes<ByteBuffer> out) {
        switch (op) {
            case WalOp.Put p -> encodeIntent(p.intent(), out);
            case WalOp.Delete d -> writeId(d.id(), out);
            case WalOp.AttachOutcome o -> {
                writeId(o.id(), out);
                out.writeByte(o.status().code());
                writeOutcome(o.outcome(), out);
            }
        }
    }

    private static void encodeIntent(Intent intent, Bytes<ByteBuffer> out) {
        writeId(intent.id(), out);
        out.writeLong(intent.timestampNs());
        out.writeLong(intent.contextHash());
        out.writeFloat(intent.confidence());
        out.writeByte(intent.status().code());
        writeOutcome(intent.outcome(), out);
        byte[] command = intent.command().getBytes(StandardCharsets.UTF_8);
        out.writeInt(command.length);
        room(out, command.length).put((int) out.writePosition(), command);
        out.writeSkip(command.length);
        int dim = intent.dimension();
        out.writeInt(dim);
        intent.copyEmbeddingTo(room(out, 4L * dim), (int) out.writePosition());
        out.writeSkip(4L * dim);
        out.writeInt(intent.edges().size());
        for (Edge e : intent.edges()) {
            writeId(e.target(), out);
            out.writeByte(e.relation().code());
            out.writeFloat(e.weight());
        }
    }

    /**
     * Makes room for {@code bytes} more at the write position and returns the underlying buffer,
     * for bulk copies at absolute indexes: chronicle-bytes copies a byte array in a Java loop,
     * and one value per bounds-checked call is slower still for an embedding.
     */
    private static ByteBuffer room(Bytes<ByteBuffer> out, long bytes) {
        out.ensureCapacity(out.writePosition() + bytes);
        return out.underlyingObject();
    }

    private static void writeOutcome(Outcome outcome, Bytes<ByteBuffer> out) {
        if (outcome == null) {
            out.writeByte((byte) 0);
        } else {
            out.writeByte((byte) 1);
            out.writeLong(outcome.latencyNs());
            out.writeInt(outcome.exitCode());
        }
    }

    private static void writeId(IntentId id, Bytes<ByteBuffer> out) {
        out.writeLong(Long.reverseBytes(id.mostSignificantBits()));
        out.writeLong(Long.reverseBytes(id.leastSignificantBits()));
    }

    // ---- decoding ---------------------------------------------------------------------------

    /** Raised for a payload that passed its checksum but does not parse; the caller adds the file. */
    static final class MalformedPayloadException extends Exception {
        final long offset;

        MalformedPayloadException(long offset, String what) {
            super(what);
            this.offset = offset;
        }
    }

    /** Decodes the ops of a record whose checksums were verified. Offsets are relative to {@code payload}. */
    static List<WalOp> decodePayload(byte type, MemorySegment payload) throws MalformedPayloadException {
        Cursor in = new Cursor(payload);
        List<WalOp> ops;
        if (type == WalFormat.TYPE_BATCH) {
            int count = in.u32("batch op count");
            if (count <= 0 || count > payload.byteSize()) {
                throw new MalformedPayloadException(0, "batch op count " + Integer.toUnsignedString(count) + " is impossible");
            }
            ops = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                long at = in.position;
                byte opType = in.u8("op type");
                if (opType == WalFormat.TYPE_BATCH) {
                    throw new MalformedPayloadException(at, "a batch cannot nest a batch");
                }
                ops.add(decodeOp(opType, in));
            }
        } else {
            ops = List.of(decodeOp(type, in));
        }
        if (in.position != payload.byteSize()) {
            throw new MalformedPayloadException(in.position, (payload.byteSize() - in.position) + " unexpected bytes after the last op");
        }
        return ops;
    }

    private static WalOp decodeOp(byte type, Cursor in) throws MalformedPayloadException {
        long at = in.position;
        try {
            return switch (type) {
                case WalFormat.TYPE_PUT -> new WalOp.Put(decodeIntent(in));
                case WalFormat.TYPE_DELETE -> new WalOp.Delete(in.id());
                case WalFormat.TYPE_OUTCOME -> {
                    IntentId id = in.id();
                    Status status = in.status();
                    yield new WalOp.AttachOutcome(id, status, in.outcome());
                }
                default -> throw new MalformedPayloadException(at, "unknown record type " + type);
            };
        } catch (InvalidIntentException e) {
            throw new MalformedPayloadException(at, "logged intent does not validate: " + e.getMessage());
        }
    }

    private static Intent decodeIntent(Cursor in) throws MalformedPayloadException {
        Intent.Builder b = Intent.builder()
                .id(in.id())
                .timestampNs(in.u64())
                .contextHash(in.u64())
                .confidence(in.f32())
                .status(in.status())
                .outcome(in.outcome());
        int commandLength = in.length("command length", 1);
        b.command(new String(in.bytes(commandLength), StandardCharsets.UTF_8));
        int dim = in.length("embedding dimension", 4);
        b.adoptEmbedding(in.floats(dim));
        int edgeCount = in.length("edge count", 21);
        List<Edge> edges = new ArrayList<>(edgeCount);
        for (int i = 0; i < edgeCount; i++) {
            IntentId target = in.id();
            long relationAt = in.position;
            int relation = in.u8("relation");
            if (!Relation.isValidCode(relation)) {
                throw new MalformedPayloadException(relationAt, "unknown relation code " + relation);
            }
            edges.add(new Edge(target, Relation.ofCode(relation), in.f32()));
        }
        return b.edges(edges).build();
    }

    /** Bounds-checked reads from a payload; every failure names the offset. */
    private static final class Cursor {
        final MemorySegment segment;
        long position;

        Cursor(MemorySegment segment) {
            this.segment = segment;
        }

        private void need(long n, String what) throws MalformedPayloadException {
            if (n > segment.byteSize() - position) {
                throw new MalformedPayloadException(position, what + " runs past the end of the record");
            }
        }

        byte u8(String what) throws MalformedPayloadException {
            need(1, what);
            return segment.get(ValueLayout.JAVA_BYTE, position++);
        }

        int u32(String what) throws MalformedPayloadException {
            need(4, what);
            int v = segment.get(INT, position);
            position += 4;
            return v;
        }

        long u64() throws MalformedPayloadException {
            need(8, "a 64-bit field");
            long v = segment.get(LONG, position);
            position += 8;
            return v;
        }

        float f32() throws MalformedPayloadException {
            need(4, "a float field");
            float v = segment.get(FLOAT, position);
            position += 4;
            return v;
        }

        /** A count of elements of {@code elementBytes} each, checked against what is left. */
        int length(String what, int elementBytes) throws MalformedPayloadException {
            long at = position;
            int n = u32(what);
            if (n < 0 || (long) n * elementBytes > segment.byteSize() - position) {
                throw new MalformedPayloadException(at, what + " " + Integer.toUnsignedString(n) + " exceeds the record");
            }
            return n;
        }

        byte[] bytes(int n) {
            byte[] out = new byte[n];
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, position, out, 0, n);
            position += n;
            return out;
        }

        float[] floats(int n) {
            float[] out = new float[n];
            MemorySegment.copy(segment, FLOAT, position, out, 0, n);
            position += 4L * n;
            return out;
        }

        IntentId id() throws MalformedPayloadException {
            need(16, "an id");
            IntentId id = IntentId.readFrom(segment, position);
            position += 16;
            return id;
        }

        Status status() throws MalformedPayloadException {
            long at = position;
            int code = u8("status");
            if (!Status.isValidCode(code)) {
                throw new MalformedPayloadException(at, "unknown status code " + code);
            }
            return Status.ofCode(code);
        }

        Outcome outcome() throws MalformedPayloadException {
            long at = position;
            int flag = u8("outcome flag");
            if (flag == 0) {
                return null;
            }
            if (flag != 1) {
                throw new MalformedPayloadException(at, "outcome flag " + flag + " is neither 0 nor 1");
            }
            long latency = u64();
            int exit = u32("exit code");
            if (latency < 0) {
                throw new MalformedPayloadException(at + 1, "negative latency");
            }
            return new Outcome(latency, exit);
        }
    }
}
