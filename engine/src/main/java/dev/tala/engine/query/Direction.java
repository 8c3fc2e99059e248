package dev.tala.engine.query;

/** Which way a traversal follows edges. */
public enum Direction {
    /** From an intent to the intents it points at. */
    OUTGOING,
    /** From an intent to the intents that point at it. */
    INCOMING,
    BOTH
}
