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

    /** Builds the state before the crash window; runs without faults. */
    void prepare(TalaDB db, Ledger ledger);

    /** The action the crash interrupts. */
    void crashWindow(TalaDB db, Ledger ledger);

    /** True when the crash window is the reopen itself (crash during recovery). */
    default boolean crashesDuringOpen() {
        return false;
    }
}
