package dev.tala.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CountsTest {
    @Test
    void oneIsSingularAndLargeCountsAreGrouped() {
        assertEquals("1 segment", Counts.of(1, "segment"));
        assertEquals("0 segments", Counts.of(0, "segment"));
        assertEquals("2,545 acknowledged writes", Counts.of(2545, "acknowledged write"));
        assertEquals("1 crash", Counts.of(1, "crash", "crashes"));
        assertEquals("21 crashes", Counts.of(21, "crash", "crashes"));
    }
}
