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
    /** An edge in a put: target id, relation code, weight. */
    private static final int EDGE_BYTES = IntentId.BYTES + 1 + 4;

    private WalRecordCodec() {
    }

    /**
     * Appends one framed record to {@code out} at its write position.
     *
     * <p>The record's size is known before a byte is written (an intent carries its command's
     * UTF-8 length), so a batch over the limit is refused before any of it is encoded, the room
     * is made once, and a failure to make it (no memory) leaves the buffer as it was. The fields
     * then go in with absolute little-endian stores into the buffer chronicle-bytes manages.
     *
     * @return the number of bytes appended
     * @throws InvalidIntentException if the payload exceeds {@link WalFormat#MAX_PAYLOAD_BYTES}
     *     (nothing is appended)
     */
    public static int encode(WalRecord record, Bytes<ByteBuffer> out) {
        List<WalOp> ops = record.ops();
        long payloadLength = payloadBytes(ops);
        if (payloadLength > WalFormat.MAX_PAYLOAD_BYTES) {
            throw oversized("its " + ops.size() + " operations encode to " + payloadLength + " bytes");
        }
        long start = out.writePosition();
        long end = start + WalFormat.RECORD_HEADER_BYTES + payloadLength;
        // May fail for want of memory; nothing is written yet, so the buffer stays whole.
        out.ensureCapacity(end);
        // chronicle-bytes addresses the buffer directly and ignores its byte order and window.
        ByteBuffer buf = out.underlyingObject().order(ByteOrder.LITTLE_ENDIAN);
        int at = (int) start;
        int payloadStart = at + WalFormat.RECORD_HEADER_BYTES;
        buf.putInt(at + WalFormat.LENGTH_OFFSET, (int) payloadLength)
                .put(at + WalFormat.TYPE_OFFSET, record.type())
                .putLong(at + WalFormat.SEQUENCE_OFFSET, record.firstSequence());
        int p = payloadStart;
        if (ops.size() > 1) {
            buf.putInt(p, ops.size());
            p += WalFormat.BATCH_COUNT_BYTES;
            for (WalOp op : ops) {
                buf.put(p++, WalRecord.typeOf(op));
                p = encodeOp(op, buf, p);
            }
        } else {
            p = encodeOp(ops.getFirst(), buf, p);
        }
        if (p != end) {
            // A size computed one way and written another: a bug here, never bad input.
            throw new IllegalStateException("record of " + ops.size() + " ops encoded to " + (p - start)
                    + " bytes, sized at " + (end - start));
        }
        CRC32C crc = new CRC32C();
        update(crc, buf, at + WalFormat.TYPE_OFFSET, 9);
        update(crc, buf, payloadStart, (int) payloadLength);
        buf.putInt(at + WalFormat.CRC_OFFSET, (int) crc.getValue());
        crc.reset();
        update(crc, buf, at, WalFormat.HEADER_CRC_OFFSET);
        buf.putInt(at + WalFormat.HEADER_CRC_OFFSET, (int) crc.getValue());
        out.writePosition(end);
        return (int) (end - start);
    }

    /** The payload length of a record holding {@code ops}, as {@link #encode} lays it out. */
    static long payloadBytes(List<WalOp> ops) {
        if (ops.size() == 1) {
            return opBytes(ops.getFirst());
        }
        long bytes = WalFormat.BATCH_COUNT_BYTES;
        for (WalOp op : ops) {
            bytes += batchedOpBytes(op);
        }
        return bytes;
    }

    /** What {@code op} adds to the payload of a batch record: its type byte and its fields. */
    public static long batchedOpBytes(WalOp op) {
        return 1 + opBytes(op);
    }

    /**
     * The error for a write batch whose record would carry more than
     * {@link WalFormat#MAX_PAYLOAD_BYTES}; {@code size} says how large it is.
     */
    public static InvalidIntentException oversized(String size) {
        return new InvalidIntentException("batch", size + ", more than " + WalFormat.MAX_PAYLOAD_BYTES
                + ", the limit for one atomic write");
    }

    private static long opBytes(WalOp op) {
        return switch (op) {
            case WalOp.Put p -> intentBytes(p.intent());
            case WalOp.Delete d -> IntentId.BYTES;
            case WalOp.AttachOutcome o -> IntentId.BYTES + 1 + outcomeBytes(o.outcome());
        };
    }

    private static long intentBytes(Intent intent) {
        return IntentId.BYTES + 8 + 8 + 4 + 1 + outcomeBytes(intent.outcome())
                + 4 + intent.commandBytes()
                + 4 + 4L * intent.dimension()
                + 4 + (long) EDGE_BYTES * intent.edges().size();
    }

    private static int outcomeBytes(Outcome outcome) {
        return outcome == null ? 1 : 1 + 8 + 4;
    }

    /**
     * Adds {@code length} bytes of {@code buffer} from {@code offset} to {@code crc} by moving the
     * buffer's window there and back (chronicle-bytes ignores the window), where a slice would be
     * one more object per checksum of every append.
     */
    private static void update(CRC32C crc, ByteBuffer buffer, int offset, int length) {
        int position = buffer.position();
        int limit = buffer.limit();
        buffer.limit(offset + length).position(offset);
        crc.update(buffer);
        buffer.limit(limit).position(position);
    }

    /** Writes {@code op} at {@code p} and returns the index after it. */
    private static int encodeOp(WalOp op, ByteBuffer buf, int p) {
        return switch (op) {
            case WalOp.Put put -> encodeIntent(put.intent(), buf, p);
            case WalOp.Delete d -> putId(d.id(), buf, p);
            case WalOp.AttachOutcome o -> {
                int q = putId(o.id(), buf, p);
                buf.put(q, o.status().code());
                yield putOutcome(o.outcome(), buf, q + 1);
            }
        };
    }

    private static int encodeIntent(Intent intent, ByteBuffer buf, int p) {
        p = putId(intent.id(), buf, p);
        buf.putLong(p, intent.timestampNs())
                .putLong(p + 8, intent.contextHash())
                .putFloat(p + 16, intent.confidence())
                .put(p + 20, intent.status().code());
        p = putOutcome(intent.outcome(), buf, p + 21);
        byte[] command = intent.command().getBytes(StandardCharsets.UTF_8);
        buf.putInt(p, command.length).put(p + 4, command);
        p += 4 + command.length;
        int dim = intent.dimension();
        buf.putInt(p, dim);
        intent.copyEmbeddingTo(buf, p + 4);
        p += 4 + 4 * dim;
        buf.putInt(p, intent.edges().size());
        p += 4;
        for (Edge e : intent.edges()) {
            p = putId(e.target(), buf, p);
            buf.put(p, e.relation().code()).putFloat(p + 1, e.weight());
            p += 5;
        }
        return p;
    }

    private static int putOutcome(Outcome outcome, ByteBuffer buf, int p) {
        if (outcome == null) {
            buf.put(p, (byte) 0);
            return p + 1;
        }
        buf.put(p, (byte) 1).putLong(p + 1, outcome.latencyNs()).putInt(p + 9, outcome.exitCode());
        return p + 13;
    }

    /** An id as its 16 big-endian bytes, whatever the buffer's order. */
    private static int putId(IntentId id, ByteBuffer buf, int p) {
        buf.putLong(p, Long.reverseBytes(id.mostSignificantBits()))
                .putLong(p + 8, Long.reverseBytes(id.leastSignificantBits()));
        return p + IntentId.BYTES;
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
        int edgeCount = in.length("edge count", EDGE_BYTES);
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
