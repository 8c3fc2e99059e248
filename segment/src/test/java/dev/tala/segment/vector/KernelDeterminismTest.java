package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.segment.EmbeddingType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A kernel returns the same bits for the same inputs whichever JIT tier runs it. The interpreter
 * and C1 run the Vector API's Java fallback, C2 its intrinsics; a reduction whose order the API
 * leaves open (reduceLanes(ADD) on floats) gives different bits in the two, so one query scored
 * the same vector differently before and after warm-up. This cannot be seen from inside one JVM,
 * whose kernels may already be compiled by earlier tests: {@link KernelFingerprint} runs in one
 * child that only interprets and one that compiles every kernel with C2 before printing.
 */
class KernelDeterminismTest {
    /** Calls of each kernel before printing: past C2's threshold (10,000) without tiered compilation. */
    private static final int WARMUP_ROUNDS = 1_000;

    @Test
    void interpretedAndC2CompiledKernelsGiveTheSameBits() throws Exception {
        Assumptions.assumeTrue(VectorKernels.isVectorized(), "the scalar fallback has no tiers to disagree");
        List<String> interpreted = fingerprint(0, "-Xint");
        List<String> compiled = fingerprint(WARMUP_ROUNDS, "-XX:-TieredCompilation", "-Xbatch",
                "-XX:+PrintCompilation");
        for (String kernel : List.of("F32Kernel", "F16Kernel", "Bf16Kernel", "Int8Kernel")) {
            assertTrue(compiled.stream().anyMatch(l -> l.contains(kernel + "::dotAndNorm")),
                    kernel + " was compiled by C2 in the warmed child");
        }
        List<String> interpretedResults = results(interpreted);
        List<String> compiledResults = results(compiled);
        assertEquals(EmbeddingType.values().length * KernelFingerprint.DIMENSIONS.length
                * KernelFingerprint.VECTORS_PER_DIMENSION, interpretedResults.size());
        assertEquals(interpretedResults.size(), compiledResults.size(), "results printed by each child");
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < interpretedResults.size(); i++) {
            if (!interpretedResults.get(i).equals(compiledResults.get(i))) {
                differences.add(interpretedResults.get(i) + " interpreted, " + compiledResults.get(i) + " compiled");
            }
        }
        assertTrue(differences.isEmpty(), differences.size() + " of " + interpretedResults.size()
                + " results differ between tiers, first: " + differences.stream().limit(3).toList());
    }

    /** The fingerprint lines: "TYPE dim=N bits", as opposed to the JIT's compilation log. */
    private static List<String> results(List<String> out) {
        List<String> results = new ArrayList<>();
        for (String line : out) {
            for (EmbeddingType type : EmbeddingType.values()) {
                if (line.startsWith(type + " dim=")) {
                    results.add(line);
                }
            }
        }
        return results;
    }

    private static List<String> fingerprint(int warmups, String... jitFlags) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("@" + Path.of(System.getProperty("tala.repo", "..")).resolve("jvm.options"));
        cmd.addAll(List.of(jitFlags));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(KernelFingerprint.class.getName());
        cmd.add(Integer.toString(warmups));
        Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "fingerprint child " + List.of(jitFlags) + " finished");
        assertEquals(0, child.exitValue(), "fingerprint child " + List.of(jitFlags) + " exit: " + out);
        return out.lines().toList();
    }
}
