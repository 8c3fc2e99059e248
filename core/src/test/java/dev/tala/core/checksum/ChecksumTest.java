package dev.tala.core.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.IntentId;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class ChecksumTest {
    @Test
    void crc32cMatchesTheCastagnoliCheckValue() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xE3069283, Crc32c.of(check));
        assertEquals(0xE3069283, Crc32c.of(ByteBuffer.wrap(check)));
        assertEquals(0xE3069283, Crc32c.of(MemorySegment.ofArray(check), 0, check.length));
    }

    @Test
    void fnv1a64MatchesPublishedVectors() {
        assertEquals(0xcbf29ce484222325L, Fnv1a64.hash(new byte[0]));
        assertEquals(0xaf63dc4c8601ec8cL, Fnv1a64.hash("a".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(0x85944171f73967e8L, Fnv1a64.hash("foobar".getBytes(StandardCharsets.US_ASCII)));
    }

    @Property
    void idAndLittleEndianShortcutsAgreeWithTheByteForm(@ForAll long msb, @ForAll long lsb) {
        IntentId id = IntentId.of(msb, lsb);
        assertEquals(Fnv1a64.hash(id.toBytes()), Fnv1a64.hash(id));
        byte[] le = ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(msb).array();
        assertEquals(Fnv1a64.hash(le), Fnv1a64.hashLittleEndian(msb));
    }
}
