package dev.tala.engine.query;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;

/** An edge between two live intents, found {@code depth} steps from where a query started. */
public record Hop(IntentId from, IntentId to, Relation relation, float weight, int depth) {
}
