package dev.tala.cli.json;

import static dev.tala.cli.json.LineField.COMMAND;
import static dev.tala.cli.json.LineField.CONFIDENCE;
import static dev.tala.cli.json.LineField.CONTEXT_HASH;
import static dev.tala.cli.json.LineField.EDGES;
import static dev.tala.cli.json.LineField.EMBEDDING;
import static dev.tala.cli.json.LineField.EXIT_CODE;
import static dev.tala.cli.json.LineField.ID;
import static dev.tala.cli.json.LineField.LATENCY_NS;
import static dev.tala.cli.json.LineField.OP;
import static dev.tala.cli.json.LineField.OUTCOME;
import static dev.tala.cli.json.LineField.SCORE;
import static dev.tala.cli.json.LineField.STATUS;
import static dev.tala.cli.json.LineField.TIMESTAMP;

import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Outcome;

/**
 * Decides what the values of a line mean once its op is known: which fields the op accepts,
 * which it requires, and then hands the values to core, whose validation is the only one.
 * Optional fields that are absent are simply not set, so the defaults are core's too.
 */
final class LineAssembler {
    /** {@code score} is what {@code tala search --json} adds; accepted and ignored so its output re-imports. */
    private static final int PUT_FIELDS = LineField.mask(OP, ID, TIMESTAMP, COMMAND, CONTEXT_HASH, CONFIDENCE,
            STATUS, EMBEDDING, EDGES, OUTCOME, SCORE);
    private static final int PUT_REQUIRED = LineField.mask(ID, TIMESTAMP, COMMAND, EMBEDDING);
    private static final int DELETE_FIELDS = LineField.mask(OP, ID);
    private static final int DELETE_REQUIRED = LineField.mask(ID);
    private static final int OUTCOME_FIELDS = LineField.mask(OP, ID, STATUS, LATENCY_NS, EXIT_CODE);
    private static final int OUTCOME_REQUIRED = LineField.mask(ID, STATUS);

    private final int dimension;

    LineAssembler(int dimension) {
        this.dimension = dimension;
    }

    IntentLine assemble(RawLine raw) {
        return switch (raw.op) {
            case "put" -> put(raw);
            case "delete" -> delete(raw);
            case "outcome" -> attachOutcome(raw);
            default -> throw new LineFormatException("op", "unknown op " + JsonValues.quote(raw.op)
                    + " (expected put, delete or outcome)");
        };
    }

    private IntentLine put(RawLine raw) {
        check(raw, "put", PUT_FIELDS, PUT_REQUIRED);
        Intent.Builder b = Intent.builder()
                .id(raw.id)
                .timestampNs(raw.timestampNs)
                .command(raw.command)
                .embedding(raw.embedding);
        if (raw.has(CONTEXT_HASH)) {
            b.contextHash(raw.contextHash);
        }
        if (raw.has(CONFIDENCE)) {
            b.confidence(raw.confidence);
        }
        if (raw.has(STATUS)) {
            b.status(raw.status);
        }
        if (raw.has(EDGES)) {
            b.edges(raw.edges);
        }
        if (raw.has(OUTCOME)) {
            b.outcome(raw.outcome);
        }
        try {
            Intent intent = b.build();
            intent.requireWritable(dimension);
            return new IntentLine.Put(intent);
        } catch (InvalidIntentException e) {
            throw CoreErrors.translate(e);
        }
    }

    private static IntentLine delete(RawLine raw) {
        check(raw, "delete", DELETE_FIELDS, DELETE_REQUIRED);
        return new IntentLine.Delete(raw.id);
    }

    private static IntentLine attachOutcome(RawLine raw) {
        check(raw, "outcome", OUTCOME_FIELDS, OUTCOME_REQUIRED);
        boolean latency = raw.has(LATENCY_NS);
        boolean exitCode = raw.has(EXIT_CODE);
        if (latency != exitCode) {
            throw new LineFormatException(latency ? EXIT_CODE.json : LATENCY_NS.json,
                    "is missing (latency_ns and exit_code are given together, or neither for no outcome)");
        }
        Outcome outcome = null;
        if (latency) {
            try {
                outcome = new Outcome(raw.latencyNs, raw.exitCode);
            } catch (InvalidIntentException e) {
                // Core names it "outcome.latency_ns"; on an outcome line it is top-level.
                throw CoreErrors.translate(e, LATENCY_NS.json);
            }
        }
        return new IntentLine.AttachOutcome(raw.id, raw.status, outcome);
    }

    /** "a \"put\"", "an \"outcome\"". */
    private static String withArticle(String op) {
        return ("aeiou".indexOf(op.charAt(0)) >= 0 ? "an" : "a") + " \"" + op + "\"";
    }

    /** Rejects fields the op does not have, then requires the ones it needs. */
    private static void check(RawLine raw, String op, int allowed, int required) {
        LineField extra = LineField.first(raw.given() & ~allowed);
        if (extra != null) {
            throw new LineFormatException(extra.json, "is not a field of " + withArticle(op) + " line (it has "
                    + LineField.names(allowed) + ")");
        }
        LineField missing = LineField.first(required & ~raw.given());
        if (missing != null) {
            throw new LineFormatException(missing.json, "is missing (" + withArticle(op) + " line needs "
                    + LineField.names(required) + ")");
        }
    }
}
