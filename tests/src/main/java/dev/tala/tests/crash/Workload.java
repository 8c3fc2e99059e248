package dev.tala.tests.crash;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * A seeded random mix of writes (puts, re-puts, deletes, outcome updates, atomic batches).
 * Each write is planned from the workload's own model of its ids, so the n-th write of a
 * workload is a pure function of (seed, dimension, n): a supervisor that only learns "write n
 * was acknowledged" can rebuild exactly what it promised. Threads must use separate workloads;
 * their ids never overlap.
 */
public final class Workload {
    /** One planned write: the batch to send and the state it leaves each id it touches in. */
    public record Write(int index, WriteBatch batch, Map<IntentId, Optional<Intent>> effects) {
    }

    private final RandomIntents intents;
    private final Random random;
    private final List<IntentId> mine = new ArrayList<>();
    private final Map<IntentId, Optional<Intent>> state = new HashMap<>();
    private int planned;

    public Workload(long seed, int dimension) {
        this.intents = new RandomIntents(seed, dimension);
        this.random = intents.random();
    }

    /** Plans the next write, assuming every earlier one was applied. */
    public Write next() {
        int ops = random.nextInt(8) == 0 ? 2 + random.nextInt(3) : 1;
        WriteBatch batch = new WriteBatch();
        Map<IntentId, Optional<Intent>> effects = new LinkedHashMap<>();
        for (int i = 0; i < ops; i++) {
            addOp(batch, effects);
        }
        state.putAll(effects);
        return new Write(planned++, batch, effects);
    }

    /** Plans a write, records it in {@code ledger}, sends it, and acknowledges it. */
    public void step(TalaDB db, Ledger ledger) {
        Write w = next();
        ledger.begin(w.effects());
        try {
            db.write(w.batch());
        } catch (InvalidIntentException refused) {
            ledger.refused(w.effects());
            throw new IllegalStateException("the workload planned a write the database refused", refused);
        }
        ledger.acknowledge(w.effects());
    }

    private void addOp(WriteBatch batch, Map<IntentId, Optional<Intent>> effects) {
        int kind = mine.isEmpty() ? 0 : random.nextInt(10);
        if (kind < 5) {
            Intent x = intents.next();
            mine.add(x.id());
            batch.put(x);
            effects.put(x.id(), Optional.of(x));
            return;
        }
        IntentId id = mine.get(random.nextInt(mine.size()));
        Optional<Intent> current = effects.containsKey(id) ? effects.get(id) : state.getOrDefault(id, Optional.empty());
        if (kind < 7 || current.isEmpty()) {
            Intent x = intents.next(id);
            batch.put(x);
            effects.put(id, Optional.of(x));
        } else if (kind < 8) {
            batch.delete(id);
            effects.put(id, Optional.empty());
        } else {
            Status status = Status.values()[random.nextInt(Status.values().length)];
            Outcome outcome = random.nextBoolean() ? new Outcome(random.nextInt(1_000_000_000), random.nextInt(256)) : null;
            batch.attachOutcome(id, status, outcome);
            effects.put(id, Optional.of(current.get().withOutcome(status, outcome)));
        }
    }
}
