package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.fault.FaultInjectingFileLayer.PowerLossMode;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Crash-point sweeps under simulated power loss (DESIGN.md invariants). The default run covers
 * every crash point of each scenario in each power-loss mode; -Dtala.long=true adds seeds.
 */
class PowerLossSweepTest {
    @TempDir
    Path work;

    static Stream<Arguments> sweeps() {
        long seeds = Boolean.getBoolean("tala.long") ? 5 : 1;
        return Stream.iterate(1L, s -> s + 1).limit(seeds).flatMap(seed ->
                Scenarios.all(seed).stream().flatMap(s -> Stream.of(PowerLossMode.values())
                        .map(mode -> Arguments.of(s.name(), mode, seed))));
    }

    @ParameterizedTest(name = "{0} / {1} / seed {2}")
    @MethodSource("sweeps")
    void everyCrashPointKeepsTheInvariants(String scenario, PowerLossMode mode, long seed) {
        CrashScenario s = Scenarios.all(seed).stream().filter(x -> x.name().equals(scenario)).findFirst().orElseThrow();
        PowerLossSweep.Result result = PowerLossSweep.run(s, work, mode, seed, 400);
        System.out.println(result);
        assertTrue(result.passed(), String.join("\n", result.failures()));
        assertTrue(result.crashPoints() > 3, "the sweep reached the crash window: " + result);
        assertTrue(result.complete(), "the sweep covered every crash point of the window: " + result);
    }
}
