package dev.tala.tests.crash;

import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;

/**
 * One kind of crash point to sweep: a database state to build without faults, then an action
 * during which the simulated machine dies after k file operations, for every k.
 */
public interface CrashScenario {
    String name();

    /** Options for every open of the scenario's database (the file layer is set by the sweep). */
    Options options();

    /** Options for the open that {@link #prepare} runs in, when it differs from the later ones. */
    default Options prepareOptions() {
        return options();
    }

    /** Builds the state before the crash window; runs without faults. */
    void prepare(TalaDB db, Ledger ledger);

    /**
     * The action the crash interrupts. When {@link #crashesDuringOpen}, it runs on the database
     * that crashing open returned, if it returned.
     */
    void crashWindow(TalaDB db, Ledger ledger);

    /** True when the crash window starts with the reopen itself (crash during recovery). */
    default boolean crashesDuringOpen() {
        return false;
    }
}
