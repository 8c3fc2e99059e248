package dev.tala.cli.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.model.IntentLimits;
import org.junit.jupiter.api.Test;

/**
 * A timestamp too large for a long was refused as "must be at most 9223372036854775807": the
 * value the message offered is itself refused (time ranges end at Long.MAX_VALUE, so the
 * largest timestamp is one less), and a person who takes the message at its word gets a
 * second error.
 */
class TimestampLimitMessageTest {
    private final IntentLineParser parser = new IntentLineParser(3);

    private String refusal(String timestamp) {
        String line = Lines.put().with("timestamp", timestamp).toString();
        return assertThrows(LineFormatException.class, () -> parser.parse(line)).getMessage();
    }

    @Test
    void aTimestampPastALongNamesTheSameLimitAsOnePastTheLargest() {
        String pastTheLargest = refusal(Long.toString(Long.MAX_VALUE));
        String pastALong = refusal("99999999999999999999999999");
        String limit = "must be at most " + IntentLimits.MAX_TIMESTAMP_NS;
        assertEquals(true, pastTheLargest.contains(limit), pastTheLargest);
        assertEquals("timestamp: " + limit + ", got 99999999999999999999999999", pastALong);
    }
}
