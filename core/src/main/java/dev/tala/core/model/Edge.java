package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;
import java.util.Objects;

/** A directed, weighted edge from the intent that holds it to {@code target}. */
public record Edge(IntentId target, Relation relation, float weight) {
    public Edge {
        if (target == null) {
            throw new InvalidIntentException("edges.target", "is missing");
        }
        if (relation == null) {
            throw new InvalidIntentException("edges.relation", "is missing");
        }
        if (!Float.isFinite(weight)) {
            throw new InvalidIntentException("edges.weight", "must be a finite number, got " + weight);
        }
    }

    @Override
    public boolean equals(Object o) {
        // Bitwise weight comparison, so that equals agrees with what round-trips through a segment.
        return o instanceof Edge e && target.equals(e.target) && relation == e.relation
                && Float.floatToIntBits(weight) == Float.floatToIntBits(e.weight);
    }

    @Override
    public int hashCode() {
        return Objects.hash(target, relation, Float.floatToIntBits(weight));
    }
}
