package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tala.core.model.Outcome;
import java.io.IOException;

/** Reads the nested {@code "outcome": {"latency_ns":..., "exit_code":...}} of a put line. */
final class OutcomeReader {
    private OutcomeReader() {
    }

    static Outcome read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw JsonValues.wrongType(p, "outcome", null, "an object with latency_ns and exit_code");
        }
        Long latency = null;
        Integer exitCode = null;
        boolean sawLatency = false;
        boolean sawExitCode = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            boolean isNull = p.currentToken() == JsonToken.VALUE_NULL; // null means "not given"
            switch (name) {
                case "latency_ns" -> {
                    sawLatency = once(sawLatency, "outcome.latency_ns");
                    latency = isNull ? null : JsonValues.int64(p, "outcome.latency_ns");
                }
                case "exit_code" -> {
                    sawExitCode = once(sawExitCode, "outcome.exit_code");
                    exitCode = isNull ? null : JsonValues.int32(p, "outcome.exit_code");
                }
                default -> throw new LineFormatException("outcome." + JsonValues.abbreviate(name),
                        "unknown field (an outcome has latency_ns and exit_code)");
            }
        }
        if (latency == null) {
            throw new LineFormatException("outcome.latency_ns", "is missing");
        }
        if (exitCode == null) {
            throw new LineFormatException("outcome.exit_code", "is missing");
        }
        // Core rejects a negative latency, naming "outcome.latency_ns", which is this path.
        return new Outcome(latency, exitCode);
    }

    private static boolean once(boolean seen, String path) {
        if (seen) {
            throw new LineFormatException(path, "appears twice in the outcome");
        }
        return true;
    }
}
