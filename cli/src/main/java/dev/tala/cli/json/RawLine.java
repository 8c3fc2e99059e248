package dev.tala.cli.json;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import java.util.List;

/**
 * The values of one line as read, before the op decides what they mean. Each value is
 * type-checked when read; whether the op accepts it, and everything core validates, is decided
 * afterwards by {@link LineAssembler}, because JSON does not promise that "op" comes first.
 */
final class RawLine {
    /** Fields named at least once, null or not: a second occurrence is an error. */
    private int named;
    /** Fields with a non-null value: JSON null means "not given". */
    private int given;

    String op = "put";
    IntentId id;
    long timestampNs;
    String command;
    long contextHash;
    float confidence;
    Status status;
    float[] embedding;
    List<Edge> edges;
    Outcome outcome;
    long latencyNs;
    int exitCode;

    /** Records that the line names {@code field}; rejects a field named twice. */
    void name(LineField field) {
        if ((named & field.bit) != 0) {
            throw new LineFormatException(field.json, "appears twice in the line");
        }
        named |= field.bit;
    }

    void give(LineField field) {
        given |= field.bit;
    }

    boolean has(LineField field) {
        return (given & field.bit) != 0;
    }

    int given() {
        return given;
    }
}
