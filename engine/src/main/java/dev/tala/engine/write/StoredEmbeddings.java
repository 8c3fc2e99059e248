package dev.tala.engine.write;

import dev.tala.core.model.Intent;
import dev.tala.segment.EmbeddingCodec;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.WalOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Gives the intents of a write the embedding their database's stored type reads back as
 * ({@link EmbeddingCodec#stored}), before the write is logged. A database of f16, bf16 or int8
 * then holds the same floats in its WAL, its memtable and its segments, and a flush, which no
 * caller asks for, does not change what {@code get} returns. Search scores the same values, but
 * a segment's kernel for the stored type sums in another order than the memtable's f32 kernel,
 * so a score may move in its last bits (and two near-equal hits swap) when the intent is
 * flushed. An f32 database keeps the floats as given.
 */
public final class StoredEmbeddings {
    private StoredEmbeddings() {
    }

    /** {@code ops} with every put's intent as stored in {@code type}; the same list when nothing changes. */
    public static List<WalOp> of(List<WalOp> ops, EmbeddingType type) {
        if (type == EmbeddingType.F32) {
            return ops;
        }
        List<WalOp> out = new ArrayList<>(ops.size());
        for (WalOp op : ops) {
            out.add(op instanceof WalOp.Put put ? new WalOp.Put(of(put.intent(), type)) : op);
        }
        return out;
    }

    /**
     * {@code ops} with every put's embedding an array of the database's own
     * ({@link Intent#withOwnEmbedding}); the same list when no put's embedding was adopted. A
     * caller that changed an adopted array after its put changed the memtable's intent, and
     * its flush stored values the WAL never logged.
     */
    public static List<WalOp> owned(List<WalOp> ops) {
        if (ops.stream().noneMatch(op -> op instanceof WalOp.Put put && put.intent().hasAdoptedEmbedding())) {
            return ops;
        }
        List<WalOp> out = new ArrayList<>(ops.size());
        for (WalOp op : ops) {
            out.add(op instanceof WalOp.Put put ? new WalOp.Put(put.intent().withOwnEmbedding()) : op);
        }
        return out;
    }

    /** {@code intent} itself when its embedding is stored exactly, else a copy with the stored floats. */
    public static Intent of(Intent intent, EmbeddingType type) {
        if (type == EmbeddingType.F32) {
            return intent; // without copying the embedding: every outcome update comes here
        }
        float[] given = intent.embedding();
        float[] stored = EmbeddingCodec.stored(type, given);
        return Arrays.equals(given, stored) ? intent : intent.toBuilder().adoptEmbedding(stored).build();
    }
}
