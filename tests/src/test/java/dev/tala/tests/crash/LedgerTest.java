package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.testing.RandomIntents;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The checks every crash test relies on must themselves catch what they claim to. */
class LedgerTest {
    final RandomIntents gen = new RandomIntents(5, 4);
    final Intent a = gen.next();
    final Intent b = gen.next();
    final Intent a2 = gen.next(a.id());

    private Ledger ledgerWithBatchInFlight() {
        Ledger ledger = new Ledger();
        Map<IntentId, Optional<Intent>> first = Map.of(a.id(), Optional.of(a));
        ledger.begin(first);
        ledger.acknowledge(first);
        // In flight: one batch that replaces a and creates b.
        Map<IntentId, Optional<Intent>> batch = new LinkedHashMap<>();
        batch.put(a.id(), Optional.of(a2));
        batch.put(b.id(), Optional.of(b));
        ledger.begin(batch);
        return ledger;
    }

    private static List<Ledger.Violation> check(Ledger ledger, Map<IntentId, Intent> db) {
        return ledger.check(id -> Optional.ofNullable(db.get(id)), Set.copyOf(db.keySet()));
    }

    @Test
    void anInFlightBatchMayBeWhollyThereOrWhollyAbsent() {
        assertEquals(List.of(), check(ledgerWithBatchInFlight(), Map.of(a.id(), a)));
        assertEquals(List.of(), check(ledgerWithBatchInFlight(), Map.of(a.id(), a2, b.id(), b)));
    }

    @Test
    void halfABatchIsCaught() {
        List<Ledger.Violation> v = check(ledgerWithBatchInFlight(), Map.of(a.id(), a, b.id(), b));
        assertEquals(1, v.size(), v.toString());
        assertEquals(a.id(), v.getFirst().id());
        assertTrue(v.getFirst().toString().contains("half of a batch"), v.toString());
    }

    @Test
    void aLostAcknowledgedWriteAndAStrangerAreCaught() {
        List<Ledger.Violation> lost = check(ledgerWithBatchInFlight(), Map.of());
        assertEquals(1, lost.size(), lost.toString());
        assertTrue(lost.getFirst().lost());
        Intent stranger = gen.next();
        Map<IntentId, Intent> db = new HashMap<>(Map.of(a.id(), a, stranger.id(), stranger));
        List<Ledger.Violation> extra = check(ledgerWithBatchInFlight(), db);
        assertEquals(1, extra.size(), extra.toString());
        assertEquals(stranger.id(), extra.getFirst().id());
    }
}
