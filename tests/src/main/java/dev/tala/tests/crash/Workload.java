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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * A seeded random mix of writes (puts, re-puts, deletes, outcome updates, atomic batches) that
 * records every write in a {@link Ledger} before sending it and acknowledges it after. One
 * workload per thread; threads must use disjoint ids so "the acknowledged state" is defined.
 */
public final class Workload {
    private final TalaDB db;
    private final Ledger ledger;
    private final RandomIntents intents;
    private final Random random;
    private final List<IntentId> mine = new ArrayList<>();

    public Workload(TalaDB db, Ledger ledger, long seed) {
        this.db = db;
        this.ledger = ledger;
        this.intents = new RandomIntents(seed, db.dimension());
        this.random = intents.random();
    }

    /** Performs one write. Exceptions other than refused input propagate (the crash). */
    public void step() {
        int ops = random.nextInt(8) == 0 ? 2 + random.nextInt(3) : 1;
        WriteBatch batch = new WriteBatch();
        Map<IntentId, Optional<Intent>> effects = new LinkedHashMap<>();
        for (int i = 0; i < ops; i++) {
            addOp(batch, effects);
        }
        ledger.begin(effects);
        try {
            db.write(batch);
        } catch (InvalidIntentException refused) {
            ledger.refused(effects);
            return;
        }
        ledger.acknowledge(effects);
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
        Optional<Intent> current = effects.containsKey(id) ? effects.get(id) : ledger.current(id);
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
