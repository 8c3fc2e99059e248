package dev.tala.tests.corruption;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Every acknowledged write sent to a base database, in sequence order, with the sequence numbers
 * the database gave it. The model of "what the database holds" is a fold of these writes; a
 * fold of a subset is what the database must hold after recovery reported dropping the rest.
 */
final class History {
    /** One acknowledged write: a WAL record holding {@code ops}, sequences {@code first..last}. */
    record Write(int index, long firstSequence, long lastSequence, List<ModelOp> ops) {
        boolean touches(IntentId id) {
            return ops.stream().anyMatch(op -> op.id().equals(id));
        }
    }

    private final List<Write> writes = new ArrayList<>();

    History copy() {
        History h = new History();
        h.writes.addAll(writes);
        return h;
    }

    Write add(long lastSequence, List<ModelOp> ops) {
        Write w = new Write(writes.size(), lastSequence - ops.size() + 1, lastSequence, List.copyOf(ops));
        if (!writes.isEmpty() && w.firstSequence() != writes.getLast().lastSequence() + 1) {
            // The model relies on contiguous sequence numbers to map WAL records to writes.
            throw new IllegalStateException("write " + w.index() + " starts at sequence " + w.firstSequence()
                    + " but the previous one ended at " + writes.getLast().lastSequence());
        }
        writes.add(w);
        return w;
    }

    List<Write> writes() {
        return writes;
    }

    long lastSequence() {
        return writes.isEmpty() ? 0 : writes.getLast().lastSequence();
    }

    /** The write whose first sequence number is {@code sequence}, or null. */
    Write startingAt(long sequence) {
        for (Write w : writes) {
            if (w.firstSequence() == sequence) {
                return w;
            }
        }
        return null;
    }

    /** The live intents after applying, in order, only the writes {@code kept} accepts. */
    NavigableMap<IntentId, Intent> stateOf(Predicate<Write> kept) {
        NavigableMap<IntentId, Intent> state = new TreeMap<>();
        for (Write w : writes) {
            if (kept.test(w)) {
                for (ModelOp op : w.ops()) {
                    op.applyTo(state);
                }
            }
        }
        return state;
    }

    NavigableMap<IntentId, Intent> finalState() {
        return stateOf(w -> true);
    }

    /** Every id any write touched (deleted ones included: they must read as absent). */
    NavigableSet<IntentId> ids() {
        NavigableSet<IntentId> ids = new TreeSet<>();
        for (Write w : writes) {
            for (ModelOp op : w.ops()) {
                ids.add(op.id());
            }
        }
        return ids;
    }
}
