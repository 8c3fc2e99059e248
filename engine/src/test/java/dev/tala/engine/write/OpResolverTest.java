package dev.tala.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.WalFormat;
import dev.tala.wal.WalOp;
import dev.tala.wal.WalRecord;
import dev.tala.wal.WalRecordCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * The resolver's payload limit refuses a batch exactly when the WAL's encoder would: its early
 * stop (which keeps a batch of a million outcome updates from being resolved in full) never
 * refuses a batch that fits, and never lets one through that does not. The limits tried lie
 * within a few bytes either side of each batch's encoded payload.
 */
class OpResolverTest {
    private static final int DIM = 16;

    @Property(tries = 300)
    void theLimitRefusesExactlyTheBatchesWhoseRecordWouldNotFit(@ForAll long seed,
                                                                 @ForAll @IntRange(min = 1, max = 30) int opCount,
                                                                 @ForAll @IntRange(min = -8, max = 8) int limitPastPayload) {
        RandomIntents gen = new RandomIntents(seed, DIM);
        Random random = gen.random();
        Map<IntentId, IntentVersion> stored = new HashMap<>();
        List<IntentId> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Intent intent = gen.next();
            stored.put(intent.id(), IntentVersion.put(i + 1, intent));
            ids.add(intent.id());
        }
        List<WalOp> ops = new ArrayList<>();
        for (int i = 0; i < opCount; i++) {
            switch (random.nextInt(3)) {
                case 0 -> {
                    Intent intent = gen.next();
                    ids.add(intent.id());
                    ops.add(new WalOp.Put(intent));
                }
                // The first id is never deleted: the outcome updates name it.
                case 1 -> ops.add(new WalOp.Delete(ids.get(1 + random.nextInt(ids.size() - 1))));
                default -> ops.add(new WalOp.AttachOutcome(ids.getFirst(), Status.SUCCESS,
                        random.nextBoolean() ? null : new Outcome(random.nextLong(1_000_000), random.nextInt(3))));
            }
        }

        List<OpResolver.Resolved> unlimited = OpResolver.resolve(ops, stored::get, true, EmbeddingType.F32, Long.MAX_VALUE);
        List<WalOp> logged = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            logged.add(unlimited.get(i).logged(ops.get(i)));
        }
        long payload = encodedPayload(logged);
        long limit = Math.max(0, payload + limitPastPayload);
        boolean fits = ops.size() == 1 || payload <= limit;
        try {
            List<OpResolver.Resolved> limited = OpResolver.resolve(ops, stored::get, true, EmbeddingType.F32, limit);
            assertTrue(fits, "a batch of " + payload + " bytes passed a limit of " + limit);
            assertEquals(unlimited, limited);
        } catch (InvalidIntentException refused) {
            assertTrue(!fits, "a batch of " + payload + " bytes refused under a limit of " + limit + ": "
                    + refused.getMessage());
            assertTrue(refused.getMessage().contains("of " + opCount + " operations already encode to"),
                    refused.getMessage());
        }
    }

    private static long encodedPayload(List<WalOp> logged) {
        Bytes<ByteBuffer> out = Bytes.elasticByteBuffer(1 << 12);
        try {
            return WalRecordCodec.encode(new WalRecord(1, logged), out) - WalFormat.RECORD_HEADER_BYTES;
        } finally {
            out.releaseLast();
        }
    }

    /**
     * A delete earlier in the batch counts as the id's newest version: an outcome after it has
     * no intent to build on (refused in a new write, skipped in a lenient replay), rather than
     * building on the stored version the batch just deleted and bringing it back.
     */
    @Test
    void anOutcomeAfterADeleteOfTheSameBatchFindsNoIntent() {
        Intent intent = new RandomIntents(5, DIM).next();
        Map<IntentId, IntentVersion> stored = Map.of(intent.id(), IntentVersion.put(1, intent));
        List<WalOp> ops = List.of(new WalOp.Delete(intent.id()),
                new WalOp.AttachOutcome(intent.id(), Status.SUCCESS, new Outcome(5, 0)));
        assertThrows(InvalidIntentException.class,
                () -> OpResolver.resolve(ops, stored::get, true, EmbeddingType.F32, Long.MAX_VALUE));
        List<OpResolver.Resolved> lenient = OpResolver.resolve(ops, stored::get, false, EmbeddingType.F32,
                Long.MAX_VALUE);
        assertTrue(lenient.get(0).tombstone());
        assertTrue(lenient.get(1).skipped(), "the outcome resolved to " + lenient.get(1));
    }
}
