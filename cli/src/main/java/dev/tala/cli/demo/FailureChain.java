package dev.tala.cli.demo;

import dev.tala.core.model.IntentId;

/**
 * A failed intent and the incident it set off, for the demo to show "a failure and its causal
 * chain". Edges point from later intents back to earlier ones, so
 * {@code tala neighbors LATEST --depth 12} walks back from the incident's latest step through
 * the alert to the failure and the deploy steps before it, and
 * {@code tala neighbors FAILURE --reverse} shows what the failure caused.
 *
 * @param failure the failed intent (status failure)
 * @param alert   the incident's first intent, which has a causal edge to {@code failure}
 * @param latest  the incident's latest intent generated so far (the postmortem when it is complete)
 */
public record FailureChain(IntentId failure, IntentId alert, IntentId latest) {
}
