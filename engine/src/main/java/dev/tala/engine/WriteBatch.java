package dev.tala.engine;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.wal.WalOp;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Several writes applied atomically: after a crash either all of them are there or none. A
 * batch is one WAL record, of at most 64 MiB encoded; an outcome update counts as the whole
 * intent it produces (the log records that version, see docs/FORMAT.md), so a batch of many
 * outcome updates of large intents can be refused where their small ops would have fitted.
 */
public final class WriteBatch {
    private final List<WalOp> ops = new ArrayList<>();

    public WriteBatch put(Intent intent) {
        ops.add(new WalOp.Put(Objects.requireNonNull(intent, "intent")));
        return this;
    }

    public WriteBatch delete(IntentId id) {
        ops.add(new WalOp.Delete(Objects.requireNonNull(id, "id")));
        return this;
    }

    /** Sets status and outcome (null to clear it) of an intent that exists by then. */
    public WriteBatch attachOutcome(IntentId id, Status status, Outcome outcome) {
        ops.add(new WalOp.AttachOutcome(Objects.requireNonNull(id, "id"), Objects.requireNonNull(status, "status"),
                outcome));
        return this;
    }

    public int size() {
        return ops.size();
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    List<WalOp> ops() {
        return List.copyOf(ops);
    }
}
