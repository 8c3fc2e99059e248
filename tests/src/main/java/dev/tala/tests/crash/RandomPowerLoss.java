package dev.tala.tests.crash;

import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The power mode of {@code tala crashtest}: in one process, through the fault-injecting file
 * layer, crash each scenario after a random number of file operations, cut the power, and
 * check; until the time is spent.
 */
public final class RandomPowerLoss {
    /** What the run did and found. */
    public record Result(int crashes, long acknowledgedChecked, int lost, int corrupt, List<String> failures) {
        public boolean passed() {
            return lost == 0 && corrupt == 0 && failures.isEmpty();
        }
    }

    private RandomPowerLoss() {
    }

    public static Result run(Path workDir, Duration duration, long seed, PrintStream progress) {
        Random random = new Random(seed);
        List<String> failures = new ArrayList<>();
        int crashes = 0;
        long acknowledged = 0;
        int lost = 0;
        int corrupt = 0;
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline && failures.isEmpty()) {
            long roundSeed = random.nextLong();
            List<CrashScenario> scenarios = Scenarios.all(roundSeed);
            CrashScenario scenario = scenarios.get(random.nextInt(scenarios.size()));
            PowerLossMode mode = PowerLossMode.values()[random.nextInt(PowerLossMode.values().length)];
            int k = random.nextInt(scenario.name().equals("wal-switch") ? 150 : 25);
            PowerLossSweep.Point p = PowerLossSweep.crashAt(scenario, workDir.resolve("round-" + crashes), mode,
                    roundSeed, k);
            if (!p.crashed()) {
                PowerLossSweep.deleteTree(workDir.resolve("round-" + crashes));
                continue; // the window ended before the k-th operation: no crash to check
            }
            crashes++;
            acknowledged += p.acknowledged();
            lost += p.lost();
            corrupt += p.corrupt();
            for (String f : p.failures()) {
                failures.add(scenario.name() + " crash after operation " + k + " (" + p.crashedAt() + ", "
                        + mode.name().toLowerCase(java.util.Locale.ROOT) + "): " + f);
            }
            if (p.failures().isEmpty()) {
                PowerLossSweep.deleteTree(workDir.resolve("round-" + (crashes - 1)));
            }
            if (progress != null && crashes % 10 == 0) {
                progress.printf("power: %d crashes, %,d acknowledged writes checked, %d lost, %d corrupt%n", crashes,
                        acknowledged, lost, corrupt);
            }
        }
        return new Result(crashes, acknowledged, lost, corrupt, List.copyOf(failures));
    }
}
