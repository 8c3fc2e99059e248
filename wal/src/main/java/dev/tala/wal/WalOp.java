package dev.tala.wal;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;

/** One logged mutation. A record carries one op, or several as an atomic batch. */
public sealed interface WalOp {
    IntentId id();

    /** Insert or replace a whole intent. */
    record Put(Intent intent) implements WalOp {
        @Override
        public IntentId id() {
            return intent.id();
        }
    }

    /** Hide every older version of {@code id}. */
    record Delete(IntentId id) implements WalOp {
    }

    /**
     * Set status and outcome of an existing intent. Logged as given and resolved against the
     * intent's state at replay, exactly as it was at write time, because replay runs in order.
     */
    record AttachOutcome(IntentId id, Status status, Outcome outcome) implements WalOp {
    }
}
