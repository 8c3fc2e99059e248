package dev.tala.engine.write;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalOp;
import dev.tala.wal.WalRecordCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Turns logged ops into the versions the memtable stores. Puts and deletes stand as they are;
 * an outcome update becomes the intent's newest version with status and outcome replaced, its
 * embedding in the database's stored type (the newest version may come from a cold level,
 * re-encoded in another type). Ops earlier in the same batch count, so a batch may put an
 * intent and attach its outcome.
 */
public final class OpResolver {
    /** The result list grows past this as needed; a huge batch may be refused long before its end. */
    private static final int INITIAL_CAPACITY_CAP = 4096;

    /** What one op becomes: a put of {@code intent}, a tombstone, or nothing (a skipped update). */
    public record Resolved(IntentId id, Intent intent, boolean tombstone) {
        public boolean skipped() {
            return intent == null && !tombstone;
        }

        /**
         * {@code op} as the WAL records it: an outcome update as the put of the version it
         * resolved to, so replay restores that version as it was acknowledged. Resolving the
         * update again on replay would build on the intent's older version as it is by then, and
         * a compaction into a cold level may have re-encoded its embedding meanwhile, so a
         * restart changed what get returned. Decoding still accepts outcome records (logs
         * written before).
         */
        public WalOp logged(WalOp op) {
            return op instanceof WalOp.AttachOutcome && intent != null ? new WalOp.Put(intent) : op;
        }

        public IntentVersion at(long sequence) {
            return tombstone ? IntentVersion.tombstone(id, sequence) : IntentVersion.put(sequence, intent);
        }
    }

    private OpResolver() {
    }

    /**
     * @param latest the newest stored version of an id (any sequence number), or null
     * @param strict when true an outcome for an id with no live intent is an error (a new
     *               write); when false it is skipped (replay after a lenient recovery)
     * @param stored the database's embedding type
     * @param payloadLimit the most a batch's WAL record may carry; resolving stops with
     *               {@link WalRecordCodec#oversized} once the ops so far pass it, so a batch of a
     *               million outcome updates is refused before it is resolved in full and fills the
     *               heap (Long.MAX_VALUE for a record already logged)
     */
    public static List<Resolved> resolve(List<WalOp> ops, Function<IntentId, IntentVersion> latest, boolean strict,
                                         EmbeddingType stored, long payloadLimit) {
        List<Resolved> out = new ArrayList<>(Math.min(ops.size(), INITIAL_CAPACITY_CAP));
        Map<IntentId, Resolved> batch = ops.size() > 1 ? new HashMap<>() : Map.of();
        long payload = WalFormat.BATCH_COUNT_BYTES;
        for (WalOp op : ops) {
            Resolved r = switch (op) {
                case WalOp.Put p -> new Resolved(p.id(), p.intent(), false);
                case WalOp.Delete d -> new Resolved(d.id(), null, true);
                case WalOp.AttachOutcome o -> {
                    Intent base = current(o.id(), batch, latest);
                    if (base == null) {
                        if (strict) {
                            throw new InvalidIntentException("id", "no intent " + o.id() + " to attach an outcome to");
                        }
                        yield new Resolved(o.id(), null, false);
                    }
                    yield new Resolved(o.id(), StoredEmbeddings.of(base.withOutcome(o.status(), o.outcome()), stored),
                            false);
                }
            };
            if (ops.size() > 1 && !r.skipped()) {
                batch.put(r.id(), r);
                payload += WalRecordCodec.batchedOpBytes(r.logged(op));
                if (payload > payloadLimit) {
                    throw WalRecordCodec.oversized("its first " + (out.size() + 1) + " of " + ops.size()
                            + " operations already encode to " + payload + " bytes");
                }
            }
            out.add(r);
        }
        return out;
    }

    private static Intent current(IntentId id, Map<IntentId, Resolved> batch, Function<IntentId, IntentVersion> latest) {
        Resolved earlier = batch.get(id);
        if (earlier != null) {
            return earlier.intent();
        }
        IntentVersion v = latest.apply(id);
        return v == null ? null : v.intent();
    }
}
