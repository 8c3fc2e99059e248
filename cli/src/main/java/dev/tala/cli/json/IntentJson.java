package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Outcome;
import java.io.IOException;

/**
 * Writes the fields of one intent line in the order of the documented format. Numbers are
 * written from exact text so they read back to the same bits: floats with {@link Float#toString}
 * (the shortest decimal that parses back to the same float since JDK 19; keeps -0.0 and
 * subnormals) and 64-bit values as unsigned decimals (context_hash uses all 64 bits).
 */
final class IntentJson {
    private IntentJson() {
    }

    static void write(JsonGenerator g, Intent intent, boolean withScore, float score) throws IOException {
        g.writeStartObject();
        g.writeStringField("op", "put");
        g.writeStringField("id", intent.id().toString());
        g.writeFieldName("timestamp");
        writeUnsigned(g, intent.timestampNs());
        g.writeStringField("command", intent.command());
        g.writeFieldName("context_hash");
        writeUnsigned(g, intent.contextHash());
        g.writeFieldName("confidence");
        writeFloat(g, intent.confidence());
        g.writeStringField("status", intent.status().label());
        g.writeArrayFieldStart("embedding");
        for (int i = 0, n = intent.dimension(); i < n; i++) {
            writeFloat(g, intent.embedding(i));
        }
        g.writeEndArray();
        // Always written, even empty, so a reader never has to guess "no edges" from absence.
        g.writeArrayFieldStart("edges");
        for (Edge e : intent.edges()) {
            g.writeStartObject();
            g.writeStringField("target", e.target().toString());
            g.writeStringField("relation", e.relation().label());
            g.writeFieldName("weight");
            writeFloat(g, e.weight());
            g.writeEndObject();
        }
        g.writeEndArray();
        Outcome outcome = intent.outcome();
        if (outcome != null) {
            g.writeObjectFieldStart("outcome");
            g.writeFieldName("latency_ns");
            writeUnsigned(g, outcome.latencyNs());
            g.writeNumberField("exit_code", outcome.exitCode());
            g.writeEndObject();
        }
        if (withScore) {
            g.writeFieldName("score");
            writeScore(g, score);
        }
        g.writeEndObject();
    }

    static void writeFloat(JsonGenerator g, float value) throws IOException {
        g.writeNumber(Float.toString(value));
    }

    /** A NaN or infinite score (a zero vector's cosine) would make the line invalid JSON: null instead. */
    static void writeScore(JsonGenerator g, float score) throws IOException {
        if (Float.isFinite(score)) {
            writeFloat(g, score);
        } else {
            g.writeNull();
        }
    }

    static void writeUnsigned(JsonGenerator g, long value) throws IOException {
        g.writeNumber(Long.toUnsignedString(value));
    }
}
