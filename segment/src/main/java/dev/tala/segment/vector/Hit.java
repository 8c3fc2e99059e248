package dev.tala.segment.vector;

/** One search result: a score and the caller's key for the scored item (e.g. a slot or a row). */
public record Hit(float score, long key) {
}
