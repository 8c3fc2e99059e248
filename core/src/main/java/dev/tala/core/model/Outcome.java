package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;

/**
 * How an intent's execution ended. {@code latencyNs} is an unsigned 64-bit value in the format;
 * TalaDB accepts 0 to 2^63-1 so that it round-trips through Java and JSON unchanged.
 */
public record Outcome(long latencyNs, int exitCode) {
    public Outcome {
        if (latencyNs < 0) {
            throw new InvalidIntentException("outcome.latency_ns", "must be >= 0, got " + latencyNs);
        }
    }
}
