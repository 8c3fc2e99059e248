package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code "edges": [{"target":..., "relation":..., "weight":...}, ...]}. Errors name the
 * edge by index ({@code edges[2].relation}) so a person can find it in a long line. The edge
 * count limit is core's, checked when the intent is built.
 */
final class EdgesReader {
    private static final String FIELDS = "target, relation and weight";
    /** An edge without a weight is a plain link; 1.0 is the neutral weight. */
    private static final float DEFAULT_WEIGHT = 1.0f;

    private EdgesReader() {
    }

    static List<Edge> read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw JsonValues.wrongType(p, "edges", null, "an array of edges");
        }
        List<Edge> edges = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            String path = "edges[" + edges.size() + "]";
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw JsonValues.wrongType(p, path, null, "an object with " + FIELDS);
            }
            edges.add(readEdge(p, path));
        }
        return edges;
    }

    private static Edge readEdge(JsonParser p, String path) throws IOException {
        IntentId target = null;
        Relation relation = null;
        float weight = DEFAULT_WEIGHT;
        boolean sawTarget = false;
        boolean sawRelation = false;
        boolean sawWeight = false;
        // The loop ends at END_OBJECT: Jackson guarantees an object holds only name/value pairs.
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "target" -> {
                    sawTarget = once(sawTarget, path, name);
                    target = isNull(p) ? null : parseId(p, path + ".target");
                }
                case "relation" -> {
                    sawRelation = once(sawRelation, path, name);
                    relation = isNull(p) ? null : parseRelation(p, path + ".relation");
                }
                case "weight" -> {
                    sawWeight = once(sawWeight, path, name);
                    weight = isNull(p) ? DEFAULT_WEIGHT : JsonValues.float32(p, path + ".weight", null);
                }
                default -> throw new LineFormatException(path + "." + JsonValues.abbreviate(name),
                        "unknown field (an edge has " + FIELDS + ")");
            }
        }
        if (target == null) {
            throw new LineFormatException(path + ".target", "is missing");
        }
        if (relation == null) {
            throw new LineFormatException(path + ".relation", "is missing");
        }
        try {
            return new Edge(target, relation, weight);
        } catch (InvalidIntentException e) {
            // Core says "edges.weight"; point at this edge instead.
            String leaf = e.field().substring(e.field().lastIndexOf('.') + 1);
            throw CoreErrors.translate(e, path + "." + leaf);
        }
    }

    /** JSON null means "not given", as it does for top-level fields. */
    private static boolean isNull(JsonParser p) {
        return p.currentToken() == JsonToken.VALUE_NULL;
    }

    private static boolean once(boolean seen, String path, String name) {
        if (seen) {
            throw new LineFormatException(path + "." + name, "appears twice in the edge");
        }
        return true;
    }

    private static IntentId parseId(JsonParser p, String path) throws IOException {
        String text = JsonValues.string(p, path);
        try {
            return IntentId.parse(text);
        } catch (InvalidIntentException e) {
            throw CoreErrors.translate(e, path);
        }
    }

    private static Relation parseRelation(JsonParser p, String path) throws IOException {
        String text = JsonValues.string(p, path);
        try {
            return Relation.parse(text);
        } catch (InvalidIntentException e) {
            throw CoreErrors.translate(e, path);
        }
    }
}
