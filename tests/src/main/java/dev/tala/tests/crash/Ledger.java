package dev.tala.tests.crash;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a crash test promised the database: the state of every id after the last acknowledged
 * write to it, plus, for writes in flight when the crash came, the state they would have left.
 * After the crash each id must be in its acknowledged state or in one of its in-flight states;
 * nothing else may exist.
 */
public final class Ledger {
    private final Map<IntentId, Optional<Intent>> acknowledged = new HashMap<>();
    private final Map<IntentId, List<Optional<Intent>>> inFlight = new HashMap<>();
    private long acknowledgedWrites;

    /** The state a new write to {@code id} builds on (its outcome updates are resolved against it). */
    public synchronized Optional<Intent> current(IntentId id) {
        return acknowledged.getOrDefault(id, Optional.empty());
    }

    /** A write is about to be sent; {@code effects} is what each id it touches becomes. */
    public synchronized void begin(Map<IntentId, Optional<Intent>> effects) {
        effects.forEach((id, state) -> inFlight.computeIfAbsent(id, k -> new ArrayList<>()).add(state));
    }

    /** The write was acknowledged: its effects now must survive. */
    public synchronized void acknowledge(Map<IntentId, Optional<Intent>> effects) {
        effects.forEach((id, state) -> {
            acknowledged.put(id, state);
            List<Optional<Intent>> pending = inFlight.get(id);
            if (pending != null) {
                pending.remove(state);
                if (pending.isEmpty()) {
                    inFlight.remove(id);
                }
            }
        });
        acknowledgedWrites++;
    }

    /** The write was refused before anything was logged (e.g. invalid input): it never happened. */
    public synchronized void refused(Map<IntentId, Optional<Intent>> effects) {
        effects.forEach((id, state) -> {
            List<Optional<Intent>> pending = inFlight.get(id);
            if (pending != null) {
                pending.remove(state);
                if (pending.isEmpty()) {
                    inFlight.remove(id);
                }
            }
        });
    }

    public synchronized long acknowledgedWrites() {
        return acknowledgedWrites;
    }

    public synchronized Set<IntentId> ids() {
        Set<IntentId> all = new HashSet<>(acknowledged.keySet());
        all.addAll(inFlight.keySet());
        return all;
    }

    /**
     * After a check passed: every write that was in flight is now settled one way or the other,
     * so record what the database holds and expect exactly that from now on.
     */
    public synchronized void settle(Function<IntentId, Optional<Intent>> read) {
        for (IntentId id : List.copyOf(inFlight.keySet())) {
            acknowledged.put(id, read.apply(id));
        }
        inFlight.clear();
    }

    /** A violation of the ledger after a crash. */
    public record Violation(IntentId id, Optional<Intent> expected, Optional<Intent> actual, boolean lost) {
        @Override
        public String toString() {
            return (lost ? "LOST " : "CORRUPT ") + id + ": expected " + expected.map(Intent::toString).orElse("absent")
                    + " but found " + actual.map(Intent::toString).orElse("absent");
        }
    }

    /**
     * Checks every id the ledger knows against {@code read}, and that {@code present} (every id
     * the database holds) contains nothing the ledger never wrote.
     */
    public synchronized List<Violation> check(Function<IntentId, Optional<Intent>> read, Set<IntentId> present) {
        List<Violation> violations = new ArrayList<>();
        for (IntentId id : ids()) {
            Optional<Intent> expected = acknowledged.getOrDefault(id, Optional.empty());
            Optional<Intent> actual = read.apply(id);
            if (actual.equals(expected) || inFlight.getOrDefault(id, List.of()).contains(actual)) {
                continue;
            }
            // Absent where something was acknowledged is a loss; anything else is a wrong answer.
            violations.add(new Violation(id, expected, actual, expected.isPresent() && actual.isEmpty()));
        }
        for (IntentId id : present) {
            if (!acknowledged.containsKey(id) && !inFlight.containsKey(id)) {
                violations.add(new Violation(id, Optional.empty(), read.apply(id), false));
            }
        }
        return violations;
    }
}
