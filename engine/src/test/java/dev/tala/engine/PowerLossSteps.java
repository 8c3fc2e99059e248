package dev.tala.engine;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;

/** Steps the engine's power-loss tests share: small intents with known ids, and a close after the power went. */
public final class PowerLossSteps {
    private PowerLossSteps() {
    }

    /** Puts {@code count} 8-dimensional intents with ids {@code (first, 1)} upward. */
    public static void putIds(TalaDB db, long first, int count) {
        for (long id = first; id < first + count; id++) {
            db.put(Intent.builder().id(IntentId.of(id, 1)).timestampNs(id + 1).command("c" + id)
                    .embedding(new float[] {1, id, 0, 1, 0, 0, 0, 1}).build());
        }
    }

    /** Closes {@code db} on a layer whose power is already off, where the close cannot write. */
    public static void closeAfterPowerLoss(TalaDB db) {
        try {
            db.close();
        } catch (RuntimeException powerOff) {
            // The machine is down: the close cannot write.
        }
    }
}
