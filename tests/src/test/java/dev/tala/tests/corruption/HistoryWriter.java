package dev.tala.tests.corruption;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Sends seeded random writes to a database and records each acknowledged one in a {@link History}.
 * Writes are planned against the writer's own view of the live intents, so an outcome update
 * always names a live intent (the database would refuse it otherwise).
 */
final class HistoryWriter {
    private final RandomIntents intents;
    private final Random random;
    private final History history;
    private final Map<IntentId, Intent> live = new HashMap<>();
    /** Ids mixed writes may touch; ids written by {@link #freshPuts} are kept out of it. */
    private final List<IntentId> mutable = new ArrayList<>();

    HistoryWriter(long seed, int dimension, History history) {
        this.intents = new RandomIntents(seed, dimension);
        this.random = intents.random();
        this.history = history;
    }

    History history() {
        return history;
    }

    /**
     * {@code n} writes mixing new intents, replacements, deletes and outcome updates; about one in
     * eight is a batch of 2 to 4 operations (one WAL record).
     */
    void mixed(TalaDB db, int n) {
        for (int i = 0; i < n; i++) {
            int ops = random.nextInt(8) == 0 ? 2 + random.nextInt(3) : 1;
            List<ModelOp> planned = new ArrayList<>();
            for (int k = 0; k < ops; k++) {
                ModelOp op = planMixed();
                op.applyTo(live);
                planned.add(op);
            }
            send(db, planned);
        }
    }

    /**
     * {@code n} puts of new intents that no later mixed write touches. If recovery loses the
     * segment holding only these (a torn last MANIFEST edit), exactly these ids go missing.
     */
    void freshPuts(TalaDB db, int n) {
        for (int i = 0; i < n; i++) {
            ModelOp op = new ModelOp.Put(intents.next());
            op.applyTo(live);
            send(db, List.of(op));
        }
    }

    private ModelOp planMixed() {
        int kind = mutable.isEmpty() ? 0 : random.nextInt(20);
        if (kind < 9) {
            Intent x = intents.next();
            mutable.add(x.id());
            return new ModelOp.Put(x);
        }
        IntentId id = mutable.get(random.nextInt(mutable.size()));
        if (kind < 13) {
            return new ModelOp.Put(intents.next(id));
        }
        if (kind < 16 || !live.containsKey(id)) {
            return new ModelOp.Delete(id);
        }
        Status status = Status.values()[random.nextInt(Status.values().length)];
        Outcome outcome = random.nextBoolean() ? new Outcome(random.nextInt(1_000_000_000), random.nextInt(256) - 5) : null;
        return new ModelOp.SetOutcome(id, status, outcome);
    }

    private void send(TalaDB db, List<ModelOp> ops) {
        WriteBatch batch = new WriteBatch();
        ops.forEach(op -> op.addTo(batch));
        long last = db.write(batch);
        history.add(last, ops);
    }
}
