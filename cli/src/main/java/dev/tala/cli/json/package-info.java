/**
 * The JSON lines format of {@code tala import} and {@code tala export}: one intent operation per
 * line. {@link dev.tala.cli.json.IntentLineParser} turns a line into an
 * {@link dev.tala.cli.json.IntentLine} (or a {@link dev.tala.cli.json.LineFormatException} that
 * names the offending field); {@link dev.tala.cli.json.JsonLinesWriter} writes intents and
 * neighbour rows so that every number reads back to the same bits.
 *
 * <p>This package depends only on tala-core, jackson-core and the JDK, never on the engine.
 */
package dev.tala.cli.json;
