package dev.tala.engine.query;

import dev.tala.core.model.Intent;

/** An intent found by a similarity search, with its score (cosine similarity, or dot product). */
public record SearchHit(Intent intent, float score) {
}
