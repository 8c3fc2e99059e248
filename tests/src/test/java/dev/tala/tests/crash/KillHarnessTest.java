package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a child JVM under SYNC load, over and over: every acknowledged write survives,
 * no deleted id comes back, verify stays clean. 30 seconds by default; -Dtala.long=true runs
 * ten minutes.
 */
class KillHarnessTest {
    @TempDir
    Path work;

    @Test
    void killedWritersLoseNothingAcknowledged() throws Exception {
        Duration duration = Boolean.getBoolean("tala.long") ? Duration.ofMinutes(10) : Duration.ofSeconds(30);
        KillHarness.Result r = new KillHarness(work, duration, 42, System.out).run();
        System.out.printf("crashtest: %d crashes, %d acknowledged writes checked, %d lost, %d corrupt%n",
                r.crashes(), r.acknowledgedChecked(), r.lost(), r.corrupt());
        assertTrue(r.passed(), String.join("\n", r.failures()));
        assertTrue(r.crashes() >= 5, "crashes: " + r.crashes());
        assertTrue(r.acknowledgedChecked() > 100, "acknowledged writes checked: " + r.acknowledgedChecked());
    }
}
