package dev.tala.cli.json;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import java.util.Objects;

/**
 * One edge met by {@code tala neighbors}: {@code from} holds an edge of {@code relation} to
 * {@code to}, found {@code depth} hops from the starting intent (1 = a direct edge).
 */
public record NeighborRow(IntentId from, IntentId to, Relation relation, float weight, int depth) {
    public NeighborRow {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(relation, "relation");
        if (depth < 0) {
            throw new IllegalArgumentException("depth must be >= 0, got " + depth);
        }
    }
}
