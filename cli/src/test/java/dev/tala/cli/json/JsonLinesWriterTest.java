package dev.tala.cli.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The exact text the writer produces: field order, number forms, escaping, line framing. */
class JsonLinesWriterTest {
    private static final IntentId ID = IntentId.parse(Lines.ID);
    private static final IntentId OTHER = IntentId.parse(Lines.OTHER_ID);

    private static Intent.Builder sample() {
        return Intent.builder()
                .id(ID)
                .timestampNs(1_700_000_000_123_456_789L)
                .command("say \"hi\" \\ \n\t\u0001 é 🚀")
                .contextHash(-1L)
                .confidence(0.75f)
                .status(Status.SUCCESS)
                .embedding(new float[] {-0.0f, Float.MIN_VALUE, 1.0E-5f, 0.1f})
                .addEdge(OTHER, Relation.CAUSAL, 0.5f)
                .outcome(new Outcome(1234, -1));
    }

    private static final String SAMPLE_FIELDS = "{\"op\":\"put\",\"id\":\"" + Lines.ID + "\",\"timestamp\":1700000000123456789,"
            + "\"command\":\"say \\\"hi\\\" \\\\ \\n\\t\\u0001 é 🚀\",\"context_hash\":18446744073709551615,"
            + "\"confidence\":0.75,\"status\":\"success\",\"embedding\":[-0.0,1.4E-45,1.0E-5,0.1],"
            + "\"edges\":[{\"target\":\"" + Lines.OTHER_ID + "\",\"relation\":\"causal\",\"weight\":0.5}]";

    @Test
    void exactLineOfAnIntent() {
        assertEquals(SAMPLE_FIELDS + ",\"outcome\":{\"latency_ns\":1234,\"exit_code\":-1}}",
                JsonLinesWriter.toLine(sample().build()));
    }

    @Test
    void outcomeOmittedWhenAbsentAndEdgesAlwaysWritten() {
        Intent intent = sample().outcome(null).edges(java.util.List.of()).build();
        String line = JsonLinesWriter.toLine(intent);
        assertFalse(line.contains("outcome"), line);
        assertEquals(SAMPLE_FIELDS.substring(0, SAMPLE_FIELDS.indexOf("\"edges\"")) + "\"edges\":[]}", line);
    }

    @Test
    void scoreComesLastAndNaNBecomesNull() throws IOException {
        StringWriter out = new StringWriter();
        try (JsonLinesWriter writer = new JsonLinesWriter(out)) {
            writer.writeIntent(sample().outcome(null).build(), 0.875f);
            writer.writeIntent(sample().outcome(null).build(), Float.NaN);
        }
        String[] lines = out.toString().split("\n", -1);
        assertEquals(3, lines.length);
        assertEquals(SAMPLE_FIELDS + ",\"score\":0.875}", lines[0]);
        assertEquals(SAMPLE_FIELDS + ",\"score\":null}", lines[1]);
        assertEquals("", lines[2]); // every line ends with '\n'
    }

    @Test
    void neighborRow() throws IOException {
        StringWriter out = new StringWriter();
        try (JsonLinesWriter writer = new JsonLinesWriter(out)) {
            writer.writeNeighbor(new NeighborRow(ID, OTHER, Relation.DEPENDENCY, 0.25f, 2));
        }
        assertEquals("{\"from\":\"" + Lines.ID + "\",\"to\":\"" + Lines.OTHER_ID
                + "\",\"relation\":\"dependency\",\"weight\":0.25,\"depth\":2}\n", out.toString());
    }

    @Test
    void outputStreamGetsUtf8AndStaysOpen() throws IOException {
        class Tracking extends ByteArrayOutputStream {
            boolean closed;

            @Override
            public void close() {
                closed = true;
            }
        }
        Tracking out = new Tracking();
        Intent intent = sample().build();
        try (JsonLinesWriter writer = new JsonLinesWriter(out)) {
            writer.writeIntent(intent);
        }
        assertFalse(out.closed, "closing the writer must not close standard output");
        assertArrayEquals((JsonLinesWriter.toLine(intent) + "\n").getBytes(StandardCharsets.UTF_8), out.toByteArray());
    }
}
