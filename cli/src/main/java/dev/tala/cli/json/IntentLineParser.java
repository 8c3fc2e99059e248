package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.Status;
import dev.tala.engine.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;

/**
 * Parses one JSON line into an {@link IntentLine}, with Jackson's streaming parser (no tree, no
 * data binding: an import may hold millions of floats). Every failure is a
 * {@link LineFormatException} naming the field; nothing else escapes for bad input.
 *
 * <p>Stateless apart from the database dimension, so one instance may serve many threads.
 */
public final class IntentLineParser {
    private final int dimension;
    private final LineAssembler assembler;

    /** @param dimension the database's embedding dimension; a put with another size is rejected */
    public IntentLineParser(int dimension) {
        this.dimension = Options.checkDimension(dimension);
        this.assembler = new LineAssembler(dimension);
    }

    public int dimension() {
        return dimension;
    }

    /** Parses a line (without its line terminator). Error columns count characters. */
    public IntentLine parse(String line) {
        try (JsonParser p = JsonFactories.READ.createParser(line)) {
            return parse(p, () -> JsonColumns.of(line));
        } catch (IOException e) {
            throw failure(e, JsonColumns.of(line));
        }
    }

    /**
     * Parses a line held as UTF-8 bytes, which skips decoding to a String first (the faster path
     * for an importer reading a file). Error columns count bytes.
     */
    public IntentLine parse(byte[] utf8, int offset, int length) {
        try (JsonParser p = JsonFactories.READ.createParser(utf8, offset, length)) {
            return parse(p, () -> JsonColumns.of(utf8, offset, length));
        } catch (IOException e) {
            throw failure(e, JsonColumns.of(utf8, offset, length));
        }
    }

    /** @param columns where the line's columns are, worked out only for an error */
    private IntentLine parse(JsonParser p, Supplier<JsonColumns> columns) throws IOException {
        JsonToken token = p.nextToken();
        if (token == null) {
            throw new LineFormatException(null, "the line is empty; expected a JSON object");
        }
        if (token != JsonToken.START_OBJECT) {
            throw new LineFormatException(null, "expected a JSON object {...}, got " + JsonValues.describe(p));
        }
        RawLine raw = new RawLine();
        try {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                readField(p, name, raw);
            }
        } catch (StreamConstraintsException e) {
            // Jackson reads a value together with its name, so the name is current either way.
            throw tooLong(e, e.getOriginalMessage().startsWith("Name") ? null : p.currentName());
        } catch (InvalidIntentException e) {
            // Core's own field name (id, status) is the JSON name at the top level.
            throw CoreErrors.translate(e);
        }
        if (p.nextToken() != null) {
            throw new LineFormatException(null, "found " + JsonValues.describe(p) + " after the JSON object, at "
                    + columns.get().column(p.currentTokenLocation()) + " (one object per line)");
        }
        return assembler.assemble(raw);
    }

    private void readField(JsonParser p, String name, RawLine raw) throws IOException {
        LineField field = LineField.byName(name);
        if (field == null) {
            throw new LineFormatException(JsonValues.abbreviate(name), "unknown field (a line may have "
                    + LineField.names(-1) + ")");
        }
        raw.name(field);
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return; // null means "not given"
        }
        raw.give(field);
        switch (field) {
            case OP -> raw.op = JsonValues.string(p, field.json);
            case ID -> raw.id = IntentId.parse(JsonValues.string(p, field.json));
            case TIMESTAMP -> raw.timestampNs = JsonValues.int64(p, field.json, IntentLimits.MAX_TIMESTAMP_NS);
            case COMMAND -> raw.command = JsonValues.string(p, field.json);
            case CONTEXT_HASH -> raw.contextHash = JsonValues.uint64(p, field.json);
            case CONFIDENCE -> raw.confidence = JsonValues.float32(p, field.json, null);
            case STATUS -> raw.status = Status.parse(JsonValues.string(p, field.json));
            case EMBEDDING -> raw.embedding = JsonValues.floats(p, field.json, dimension);
            case EDGES -> raw.edges = EdgesReader.read(p);
            case OUTCOME -> raw.outcome = OutcomeReader.read(p);
            case LATENCY_NS -> raw.latencyNs = JsonValues.int64(p, field.json);
            case EXIT_CODE -> raw.exitCode = JsonValues.int32(p, field.json);
            case SCORE -> JsonValues.float32(p, field.json, null);
        }
    }

    /**
     * A string, number or name past Jackson's own limits, far past any field's: named by the
     * field being read ({@code field}), or as a field name when {@code field} is null.
     */
    private static LineFormatException tooLong(StreamConstraintsException e, String field) {
        String limit = " is too long to read (" + e.getOriginalMessage() + ")";
        if (field == null) {
            return new LineFormatException(null, "a field name" + limit);
        }
        return new LineFormatException(JsonValues.abbreviate(field), "the value" + limit
                + (field.equals(LineField.COMMAND.json) ? "; a command may hold at most "
                        + IntentLimits.MAX_COMMAND_BYTES + " bytes of UTF-8" : ""));
    }

    private static RuntimeException failure(IOException e, JsonColumns columns) {
        if (e instanceof StreamConstraintsException limit) {
            return new LineFormatException(null, "a value is too long to read (" + limit.getOriginalMessage() + ")");
        }
        if (e instanceof JsonProcessingException jpe) {
            return new LineFormatException(null, "malformed JSON" + (jpe.getLocation() == null ? ""
                    : " at " + columns.column(jpe.getLocation())) + ": "
                    + columns.withoutParserLocation(jpe.getOriginalMessage()));
        }
        // In-memory input: an IOException that is not a parse error means a bug, not bad data.
        return new UncheckedIOException(e);
    }
}
