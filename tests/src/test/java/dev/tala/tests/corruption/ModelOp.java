package dev.tala.tests.corruption;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.engine.WriteBatch;
import java.util.Map;

/**
 * One operation of a write, as the model applies it. Outcome updates are kept as given (not
 * resolved to a whole intent) because that is how the WAL logs them and how replay applies
 * them: if recovery drops earlier writes, a later outcome lands on whatever version is left.
 * Keeping the operation lets the model compute exactly that state for any subset of writes.
 */
sealed interface ModelOp {
    IntentId id();

    /** Applies this operation to a model state (id to live intent). */
    void applyTo(Map<IntentId, Intent> state);

    /** Adds this operation to the batch that sends it to the database. */
    void addTo(WriteBatch batch);

    record Put(Intent intent) implements ModelOp {
        @Override
        public IntentId id() {
            return intent.id();
        }

        @Override
        public void applyTo(Map<IntentId, Intent> state) {
            state.put(intent.id(), intent);
        }

        @Override
        public void addTo(WriteBatch batch) {
            batch.put(intent);
        }
    }

    record Delete(IntentId id) implements ModelOp {
        @Override
        public void applyTo(Map<IntentId, Intent> state) {
            state.remove(id);
        }

        @Override
        public void addTo(WriteBatch batch) {
            batch.delete(id);
        }
    }

    /** {@code outcome} may be null (clears it). */
    record SetOutcome(IntentId id, Status status, Outcome outcome) implements ModelOp {
        @Override
        public void applyTo(Map<IntentId, Intent> state) {
            Intent current = state.get(id);
            // Replay skips an outcome whose intent is gone (RECOVERY.md, open step 6).
            if (current != null) {
                state.put(id, current.withOutcome(status, outcome));
            }
        }

        @Override
        public void addTo(WriteBatch batch) {
            batch.attachOutcome(id, status, outcome);
        }
    }
}
