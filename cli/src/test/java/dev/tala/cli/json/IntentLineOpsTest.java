package dev.tala.cli.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Valid lines of each op, defaults, and the leniencies the format allows. */
class IntentLineOpsTest {
    private final IntentLineParser parser = new IntentLineParser(3);

    private Intent put(Object line) {
        IntentLine parsed = parser.parse(line.toString());
        return ((IntentLine.Put) parsed).intent();
    }

    @Test
    void deleteLine() {
        IntentLine line = parser.parse("{\"op\":\"delete\",\"id\":\"" + Lines.ID + "\"}");
        assertEquals(new IntentLine.Delete(IntentId.parse(Lines.ID)), line);
    }

    @Test
    void outcomeLineWithLatencyAndExitCode() {
        IntentLine line = parser.parse("{\"op\":\"outcome\",\"id\":\"" + Lines.ID
                + "\",\"status\":\"failure\",\"latency_ns\":1500000,\"exit_code\":137}");
        assertEquals(new IntentLine.AttachOutcome(IntentId.parse(Lines.ID), Status.FAILURE, new Outcome(1_500_000, 137)),
                line);
    }

    @Test
    void outcomeLineWithoutOutcome() {
        IntentLine line = parser.parse("{\"op\":\"outcome\",\"id\":\"" + Lines.ID + "\",\"status\":\"partial\"}");
        assertEquals(new IntentLine.AttachOutcome(IntentId.parse(Lines.ID), Status.PARTIAL, null), line);
    }

    @Test
    void putDefaultsAreCores() {
        Intent intent = put(Lines.put().without("op"));
        assertEquals(IntentId.parse(Lines.ID), intent.id());
        assertEquals(1_700_000_000_000_000_000L, intent.timestampNs());
        assertEquals("kubectl get pods", intent.command());
        assertEquals(0L, intent.contextHash());
        assertEquals(1.0f, intent.confidence());
        assertEquals(Status.PENDING, intent.status());
        assertEquals(List.of(), intent.edges());
        assertNull(intent.outcome());
        assertEquals(Float.floatToIntBits(-0.25f), Float.floatToIntBits(intent.embedding(1)));
    }

    @Test
    void nullMeansNotGiven() {
        Intent intent = put(Lines.put().with("status", "null").with("edges", "null").with("outcome", "null")
                .with("confidence", "null").with("context_hash", "null"));
        assertEquals(put(Lines.put()), intent);
    }

    @Test
    void fieldOrderDoesNotMatter() {
        String reordered = "{\"embedding\":[0.5,-0.25,1.0],\"command\":\"kubectl get pods\",\"timestamp\":1700000000000000000,"
                + "\"id\":\"" + Lines.ID + "\",\"op\":\"put\"}";
        assertEquals(put(Lines.put()), put(reordered));
        assertEquals(new IntentLine.Delete(IntentId.parse(Lines.ID)),
                parser.parse("{\"id\":\"" + Lines.ID + "\",\"op\":\"delete\"}"));
    }

    @Test
    void allFieldsOfAPut() {
        Intent intent = put(Lines.put()
                .with("context_hash", "18446744073709551615")
                .with("confidence", "0.25")
                .with("status", "\"success\"")
                .with("edges", "[{\"target\":\"" + Lines.OTHER_ID + "\",\"relation\":\"dependency\",\"weight\":0.5},"
                        + "{\"weight\":2,\"relation\":\"branch\",\"target\":\"" + Lines.OTHER_ID.toUpperCase() + "\"}]")
                .with("outcome", "{\"exit_code\":-1,\"latency_ns\":9223372036854775807}"));
        assertEquals(-1L, intent.contextHash());
        assertEquals(0.25f, intent.confidence());
        assertEquals(Status.SUCCESS, intent.status());
        IntentId other = IntentId.parse(Lines.OTHER_ID);
        assertEquals(List.of(new Edge(other, Relation.DEPENDENCY, 0.5f), new Edge(other, Relation.BRANCH, 2f)),
                intent.edges());
        assertEquals(new Outcome(Long.MAX_VALUE, -1), intent.outcome());
    }

    @Test
    void contextHashUsesAll64Bits() {
        assertEquals(Long.MIN_VALUE, put(Lines.put().with("context_hash", "9223372036854775808")).contextHash());
        assertEquals(Long.MAX_VALUE, put(Lines.put().with("context_hash", "9223372036854775807")).contextHash());
    }

    @Test
    void edgeWithoutWeightWeighsOne() {
        Intent intent = put(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID + "\",\"relation\":\"retry\"}]"));
        assertEquals(1.0f, intent.edges().get(0).weight());
    }

    @Test
    void integerLiteralsInFloatFieldsKeepTheirSign() {
        Intent intent = put(Lines.put().with("embedding", "[-0,0,16777217]"));
        assertEquals(Float.floatToIntBits(-0.0f), Float.floatToIntBits(intent.embedding(0)));
        assertEquals(Float.floatToIntBits(0.0f), Float.floatToIntBits(intent.embedding(1)));
        assertEquals(16777216f, intent.embedding(2)); // rounded once, to nearest even
    }

    @Test
    void scoreOfASearchResultIsAcceptedAndIgnored() {
        assertEquals(put(Lines.put()), put(Lines.put().with("score", "0.93")));
    }

    @Test
    void whitespaceAroundTheObject() {
        assertEquals(put(Lines.put()), put("  \t" + Lines.put() + " \r"));
    }

    @Test
    void bytesFromTheMiddleOfABuffer() {
        String line = Lines.put().with("command", "\"déployer 🚀\"").toString();
        byte[] buffer = ("garbage\n" + line + "\nmore").getBytes(StandardCharsets.UTF_8);
        int from = "garbage\n".length();
        int length = line.getBytes(StandardCharsets.UTF_8).length;
        IntentLine parsed = parser.parse(buffer, from, length);
        assertEquals("déployer 🚀", ((IntentLine.Put) parsed).intent().command());
        assertTrue(parsed instanceof IntentLine.Put);
    }
}
