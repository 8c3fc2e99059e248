package dev.tala.wal;

import java.util.List;
import java.util.OptionalInt;

/**
 * A logged record: {@code ops.size()} consecutive sequence numbers starting at
 * {@code firstSequence}, applied all or none.
 */
public record WalRecord(long firstSequence, List<WalOp> ops) {
    public WalRecord {
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("a record holds at least one op");
        }
        ops = List.copyOf(ops);
    }

    public long lastSequence() {
        return firstSequence + ops.size() - 1;
    }

    /**
     * The embedding dimension of the first put whose dimension is not {@code dimension}, or
     * empty: what both an open and verify check a replayed record against OPTIONS with.
     */
    public OptionalInt otherDimension(int dimension) {
        for (WalOp op : ops) {
            if (op instanceof WalOp.Put put && put.intent().dimension() != dimension) {
                return OptionalInt.of(put.intent().dimension());
            }
        }
        return OptionalInt.empty();
    }

    /** The record type byte for these ops. */
    byte type() {
        return ops.size() > 1 ? WalFormat.TYPE_BATCH : typeOf(ops.getFirst());
    }

    static byte typeOf(WalOp op) {
        return switch (op) {
            case WalOp.Put p -> WalFormat.TYPE_PUT;
            case WalOp.Delete d -> WalFormat.TYPE_DELETE;
            case WalOp.AttachOutcome o -> WalFormat.TYPE_OUTCOME;
        };
    }
}
