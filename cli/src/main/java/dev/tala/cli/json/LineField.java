package dev.tala.cli.json;

import java.util.StringJoiner;

/**
 * The top-level fields a line may have, whatever its op. Which of them an op accepts is a mask
 * of {@link #bit}s, so "is this field allowed / present" costs one AND per line.
 */
enum LineField {
    OP("op"), ID("id"), TIMESTAMP("timestamp"), COMMAND("command"), CONTEXT_HASH("context_hash"),
    CONFIDENCE("confidence"), STATUS("status"), EMBEDDING("embedding"), EDGES("edges"), OUTCOME("outcome"),
    LATENCY_NS("latency_ns"), EXIT_CODE("exit_code"), SCORE("score");

    private static final LineField[] ALL = values();

    final String json;
    final int bit;

    LineField(String json) {
        this.json = json;
        this.bit = 1 << ordinal();
    }

    /** The field with this JSON name, or null when there is none. */
    static LineField byName(String name) {
        return switch (name) {
            case "op" -> OP;
            case "id" -> ID;
            case "timestamp" -> TIMESTAMP;
            case "command" -> COMMAND;
            case "context_hash" -> CONTEXT_HASH;
            case "confidence" -> CONFIDENCE;
            case "status" -> STATUS;
            case "embedding" -> EMBEDDING;
            case "edges" -> EDGES;
            case "outcome" -> OUTCOME;
            case "latency_ns" -> LATENCY_NS;
            case "exit_code" -> EXIT_CODE;
            case "score" -> SCORE;
            default -> null;
        };
    }

    static int mask(LineField... fields) {
        int mask = 0;
        for (LineField f : fields) {
            mask |= f.bit;
        }
        return mask;
    }

    /** The first field (in declaration order) whose bit is set, or null. */
    static LineField first(int mask) {
        for (LineField f : ALL) {
            if ((mask & f.bit) != 0) {
                return f;
            }
        }
        return null;
    }

    /** The names in a mask, for messages: {@code "op, id, timestamp"}. */
    static String names(int mask) {
        StringJoiner joiner = new StringJoiner(", ");
        for (LineField f : ALL) {
            if ((mask & f.bit) != 0) {
                joiner.add(f.json);
            }
        }
        return joiner.toString();
    }
}
