/**
 * Demo data that needs no model and no network: {@link dev.tala.cli.demo.TextEmbedder} (a
 * deterministic feature-hashing embedding of command text) and
 * {@link dev.tala.cli.demo.NarrativeGenerator} (deploys, incidents, CI builds and provisioning,
 * as interleaved narratives of intents with outcomes and edges).
 *
 * <p>Finding "a failure and its causal chain" for the demo: a
 * {@link dev.tala.cli.demo.NarrativeRun} reports every failed id it emitted
 * ({@link dev.tala.cli.demo.NarrativeRun#failedIds()}) and, for failures that set off an
 * incident, the incident's alert and latest intent
 * ({@link dev.tala.cli.demo.NarrativeRun#failureChains()}). A demo that did not keep the run
 * can instead look for an intent whose command starts with {@code amtool} and that has a causal
 * edge: its target is such a failure.
 *
 * <p>This package depends only on tala-core and the JDK, never on the engine.
 */
package dev.tala.cli.demo;
