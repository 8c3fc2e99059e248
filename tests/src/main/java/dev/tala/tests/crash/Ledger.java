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
 * After the crash each id must be in its acknowledged state or in one of its in-flight states,
 * nothing else may exist, and a write in flight (a batch) shows either all of its effects or
 * none: with each writer's writes in order, what survives is an exact prefix of them.
 */
public final class Ledger {
    private final Map<IntentId, Optional<Intent>> acknowledged = new HashMap<>();
    /** Writes begun and neither acknowledged nor refused, oldest first. */
    private final List<PendingWrite> inFlight = new ArrayList<>();
    private long acknowledgedWrites;

    /** A write in flight: what it makes of each id, and what each id was before it. */
    private record PendingWrite(Map<IntentId, Optional<Intent>> after, Map<IntentId, Optional<Intent>> before) {
    }

    /** The state a new write to {@code id} builds on (its outcome updates are resolved against it). */
    public synchronized Optional<Intent> current(IntentId id) {
        return acknowledged.getOrDefault(id, Optional.empty());
    }

    /**
     * A write is about to be sent; {@code effects} is what each id it touches becomes. Pass the
     * same map to {@link #acknowledge} or {@link #refused} when the write is settled.
     */
    public synchronized void begin(Map<IntentId, Optional<Intent>> effects) {
        Map<IntentId, Optional<Intent>> before = new HashMap<>();
        effects.keySet().forEach(id -> before.put(id, current(id)));
        inFlight.add(new PendingWrite(effects, before));
    }

    /** The write was acknowledged: its effects now must survive. */
    public synchronized void acknowledge(Map<IntentId, Optional<Intent>> effects) {
        inFlight.removeIf(w -> w.after() == effects);
        acknowledged.putAll(effects);
        acknowledgedWrites++;
    }

    /** The write was refused before anything was logged (e.g. invalid input): it never happened. */
    public synchronized void refused(Map<IntentId, Optional<Intent>> effects) {
        inFlight.removeIf(w -> w.after() == effects);
    }

    public synchronized long acknowledgedWrites() {
        return acknowledgedWrites;
    }

    public synchronized Set<IntentId> ids() {
        Set<IntentId> all = new HashSet<>(acknowledged.keySet());
        all.addAll(inFlightIds());
        return all;
    }

    private Set<IntentId> inFlightIds() {
        Set<IntentId> ids = new HashSet<>();
        inFlight.forEach(w -> ids.addAll(w.after().keySet()));
        return ids;
    }

    /** What the writes in flight would leave {@code id} in. */
    private List<Optional<Intent>> inFlightStates(IntentId id) {
        return inFlight.stream().filter(w -> w.after().containsKey(id)).map(w -> w.after().get(id)).toList();
    }

    /**
     * After a check passed: every write that was in flight is now settled one way or the other,
     * so record what the database holds and expect exactly that from now on.
     */
    public synchronized void settle(Function<IntentId, Optional<Intent>> read) {
        for (IntentId id : inFlightIds()) {
            acknowledged.put(id, read.apply(id));
        }
        inFlight.clear();
    }

    /** A violation of the ledger after a crash. */
    public record Violation(IntentId id, Optional<Intent> expected, Optional<Intent> actual, boolean lost,
                            String why) {
        Violation(IntentId id, Optional<Intent> expected, Optional<Intent> actual, boolean lost) {
            this(id, expected, actual, lost, "");
        }

        @Override
        public String toString() {
            return (lost ? "LOST " : "CORRUPT ") + id + (why.isEmpty() ? "" : " (" + why + ")") + ": expected "
                    + expected.map(Intent::toString).orElse("absent")
                    + " but found " + actual.map(Intent::toString).orElse("absent");
        }
    }

    /**
     * Checks every id the ledger knows against {@code read}, and that {@code present} (every id
     * the database holds) contains nothing the ledger never wrote.
     */
    public synchronized List<Violation> check(Function<IntentId, Optional<Intent>> read, Set<IntentId> present) {
        List<Violation> violations = new ArrayList<>();
        Set<IntentId> inFlightIds = inFlightIds();
        for (IntentId id : ids()) {
            Optional<Intent> expected = acknowledged.getOrDefault(id, Optional.empty());
            Optional<Intent> actual = read.apply(id);
            if (actual.equals(expected) || (inFlightIds.contains(id) && inFlightStates(id).contains(actual))) {
                continue;
            }
            // Absent where something was acknowledged is a loss; anything else is a wrong answer.
            violations.add(new Violation(id, expected, actual, expected.isPresent() && actual.isEmpty()));
        }
        for (IntentId id : present) {
            if (!acknowledged.containsKey(id) && !inFlightIds.contains(id)) {
                violations.add(new Violation(id, Optional.empty(), read.apply(id), false));
            }
        }
        for (PendingWrite w : inFlight) {
            violations.addAll(tornBatch(w, read));
        }
        return violations;
    }

    /** Ids of {@code w} left as before it while others of it took its effect: a half-applied batch. */
    private static List<Violation> tornBatch(PendingWrite w, Function<IntentId, Optional<Intent>> read) {
        List<IntentId> applied = new ArrayList<>();
        List<IntentId> missed = new ArrayList<>();
        w.after().forEach((id, after) -> {
            Optional<Intent> before = w.before().get(id);
            if (after.equals(before)) {
                return; // this part of the write changes nothing visible
            }
            Optional<Intent> actual = read.apply(id);
            if (actual.equals(after)) {
                applied.add(id);
            } else if (actual.equals(before)) {
                missed.add(id);
            }
        });
        if (applied.isEmpty() || missed.isEmpty()) {
            return List.of();
        }
        List<Violation> torn = new ArrayList<>();
        for (IntentId id : missed) {
            torn.add(new Violation(id, w.after().get(id), read.apply(id), false,
                    "half of a batch: " + applied.size() + " of its ids took effect, this one did not"));
        }
        return torn;
    }
}
