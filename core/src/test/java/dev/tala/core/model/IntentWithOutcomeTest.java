package dev.tala.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What attaching an outcome changes, checked field by field against literals: the engine applies
 * {@link Intent#withOutcome}, and the models of the engine's tests predict with it too, so a
 * change that touched another field would pass them all (an audit's mutation that also zeroed
 * confidence and context hash did).
 */
class IntentWithOutcomeTest {
    @Test
    void onlyStatusAndOutcomeChange() {
        IntentId target = IntentId.of(7, 8);
        Intent before = Intent.builder().id(IntentId.of(1, 2)).timestampNs(1_700_000_000_123_456_789L)
                .contextHash(0x0123_4567_89AB_CDEFL).confidence(0.625f).status(Status.PENDING)
                .command("kubectl rollout restart deploy/api").embedding(new float[] {0.5f, -1.25f, 3f})
                .addEdge(target, Relation.CAUSAL, 0.75f).build();

        Intent after = before.withOutcome(Status.FAILURE, new Outcome(42_000L, 3));

        assertEquals(Status.FAILURE, after.status());
        assertEquals(new Outcome(42_000L, 3), after.outcome());
        assertEquals(IntentId.of(1, 2), after.id());
        assertEquals(1_700_000_000_123_456_789L, after.timestampNs());
        assertEquals(0x0123_4567_89AB_CDEFL, after.contextHash());
        assertEquals(0.625f, after.confidence());
        assertEquals("kubectl rollout restart deploy/api", after.command());
        assertArrayEquals(new float[] {0.5f, -1.25f, 3f}, after.embedding());
        assertEquals(List.of(new Edge(target, Relation.CAUSAL, 0.75f)), after.edges());

        Intent cleared = after.withOutcome(Status.PENDING, null);
        assertEquals(Status.PENDING, cleared.status());
        assertNull(cleared.outcome());
        assertEquals(before, cleared);
        assertEquals(Status.PENDING, before.status(), "the original is unchanged");
        assertNull(before.outcome());
    }
}
