package dev.tala.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.InvalidIntentException;
import java.util.Arrays;
import java.util.UUID;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class IntentIdTest {
    @Property
    void textRoundTripsAndAgreesWithJavaUuid(@ForAll long msb, @ForAll long lsb) {
        IntentId id = IntentId.of(msb, lsb);
        String text = id.toString();
        assertEquals(new UUID(msb, lsb).toString(), text);
        assertEquals(id, IntentId.parse(text));
        assertEquals(id, IntentId.parse(text.toUpperCase()));
    }

    @Property
    void orderIsUnsignedBigEndianByteOrder(@ForAll long a1, @ForAll long a2, @ForAll long b1, @ForAll long b2) {
        IntentId a = IntentId.of(a1, a2);
        IntentId b = IntentId.of(b1, b2);
        int byBytes = Integer.signum(Arrays.compareUnsigned(a.toBytes(), b.toBytes()));
        assertEquals(byBytes, Integer.signum(a.compareTo(b)));
        assertEquals(a, IntentId.fromBytes(a.toBytes()));
    }

    @Test
    void generatedIdsAreVersion7AndStrictlyIncreasing() {
        IntentId previous = IntentId.newV7();
        for (int i = 0; i < 100_000; i++) {
            IntentId next = IntentId.newV7();
            assertTrue(next.compareTo(previous) > 0, "ids must increase: " + previous + " then " + next);
            UUID u = new UUID(next.mostSignificantBits(), next.leastSignificantBits());
            assertEquals(7, u.version());
            assertEquals(2, u.variant());
            previous = next;
        }
        long millis = previous.mostSignificantBits() >>> 16;
        assertTrue(Math.abs(millis - System.currentTimeMillis()) < 60_000, "timestamp field is the clock");
    }

    @Test
    void malformedTextIsRejectedWithTheField() {
        for (String bad : new String[] {"", "nope", "0190a6f2-7c1e-7a3b-9f00-0123456789a", "0190a6f2x7c1e-7a3b-9f00-0123456789ab",
                "0190a6f2-7c1e-7a3b-9f00-0123456789ag", "0190a6f2-7c1e-7a3b-9f00+0123456789ab", "+190a6f2-7c1e-7a3b-9f00-0123456789ab"}) {
            InvalidIntentException e = assertThrows(InvalidIntentException.class, () -> IntentId.parse(bad), bad);
            assertEquals("id", e.field());
            assertTrue(e.getMessage().contains("not a UUID"), e.getMessage());
        }
        assertThrows(InvalidIntentException.class, () -> IntentId.parse(null));
    }
}
