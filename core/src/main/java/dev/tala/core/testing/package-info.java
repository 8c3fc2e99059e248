/**
 * Support for testing TalaDB and the systems that embed it: seeded random intents and a file
 * layer to decorate. Beside {@link dev.tala.core.io.fault.FaultInjectingFileLayer}, these are
 * what the crash harness ({@code tala crashtest}) and the benchmarks run on.
 */
package dev.tala.core.testing;
