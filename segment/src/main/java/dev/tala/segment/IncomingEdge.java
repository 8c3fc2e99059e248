package dev.tala.segment;

import dev.tala.core.model.Relation;

/** An edge into some id, seen from the reverse (CSC) block: its local source row, relation and weight. */
public record IncomingEdge(int sourceRow, Relation relation, float weight) {
}
