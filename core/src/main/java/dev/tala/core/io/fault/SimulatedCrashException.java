package dev.tala.core.io.fault;

import java.io.IOException;

/** Thrown by every operation of a {@link FaultInjectingFileLayer} at or after its crash point. */
public final class SimulatedCrashException extends IOException {
    public SimulatedCrashException(String message) {
        super(message);
    }
}
