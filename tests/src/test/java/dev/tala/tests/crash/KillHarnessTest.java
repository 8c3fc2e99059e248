package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a child JVM under load, over and over: every acknowledged write survives, no
 * deleted id comes back, verify stays clean. SYNC writes for 30 seconds by default, and NONE
 * writes (acknowledged once handed to the OS, which a killed process cannot take back) for 15;
 * -Dtala.long=true runs ten minutes each.
 */
class KillHarnessTest {
    private static final int MINIMUM_CRASHES = 5;
    /** Checked below; the run goes on past its duration (up to 4x) until it has this many. */
    private static final int MINIMUM_ACKNOWLEDGED = 101;

    @TempDir
    Path work;

    @Test
    void killedWritersLoseNothingAcknowledged() throws Exception {
        Duration duration = Boolean.getBoolean("tala.long") ? Duration.ofMinutes(10) : Duration.ofSeconds(30);
        check(new KillHarness(work, duration, 42, System.out).atLeast(MINIMUM_CRASHES)
                .acknowledgedAtLeast(MINIMUM_ACKNOWLEDGED).run());
    }

    @Test
    void killedWritersWithoutSyncLoseNothingHandedToTheOs() throws Exception {
        Duration duration = Boolean.getBoolean("tala.long") ? Duration.ofMinutes(10) : Duration.ofSeconds(15);
        check(new KillHarness(work, duration, 43, System.out, Durability.none()).atLeast(MINIMUM_CRASHES)
                .acknowledgedAtLeast(MINIMUM_ACKNOWLEDGED).run());
    }

    private static void check(KillHarness.Result r) {
        System.out.printf("crashtest: %d crashes, %d acknowledged writes checked, %d lost, %d corrupt%n",
                r.crashes(), r.acknowledgedChecked(), r.lost(), r.corrupt());
        assertTrue(r.passed(), String.join("\n", r.failures()));
        assertTrue(r.crashes() >= MINIMUM_CRASHES, "crashes: " + r.crashes());
        assertTrue(r.acknowledgedChecked() >= MINIMUM_ACKNOWLEDGED,
                "acknowledged writes checked: " + r.acknowledgedChecked());
    }
}
