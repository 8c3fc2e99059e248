package dev.tala.segment.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.segment.EmbeddingType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel returns the same bits for the same inputs whichever JIT tier runs it. The interpreter
 * and C1 run the Vector API's Java fallback, C2 its intrinsics; a reduction whose order the API
 * leaves open (reduceLanes(ADD) on floats) gives different bits in the two, so one query scored
 * the same vector differently before and after warm-up. This cannot be seen from inside one JVM,
 * whose kernels may already be compiled by earlier tests: {@link KernelFingerprint} runs in one
 * child that only interprets and one that compiles every kernel with C2 before it writes.
 */
class KernelDeterminismTest {
    /** Rounds of every call before the results are taken: 80,000 calls per kernel, past C2's 10,000. */
    private static final int WARMUP_ROUNDS = 1_000;
    private static final List<String> KERNELS = List.of("F32Kernel", "F16Kernel", "Bf16Kernel", "Int8Kernel");

    @TempDir
    Path dir;

    @Test
    void interpretedAndC2CompiledKernelsGiveTheSameBits() throws Exception {
        Assumptions.assumeTrue(VectorKernels.isVectorized(), "the scalar fallback has no tiers to disagree");
        Child interpreted = fingerprint("interpreted", 0, "-Xint");
        // Kept out of line, each kernel is a compilation of its own that the JIT log names.
        Child compiled = fingerprint("compiled", WARMUP_ROUNDS, "-XX:-TieredCompilation", "-Xbatch",
                "-XX:+PrintCompilation", "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=dontinline,*Kernel::dotAndNorm");
        for (String kernel : KERNELS) {
            assertTrue(compiled.jitLog.stream().anyMatch(l -> isCompilationOf(l, kernel + "::dotAndNorm")),
                    kernel + " was compiled by C2 in the warmed child");
        }
        assertEquals(EmbeddingType.values().length * KernelFingerprint.DIMENSIONS.length
                * KernelFingerprint.VECTORS_PER_DIMENSION, interpreted.results.size());
        assertEquals(interpreted.results.size(), compiled.results.size(), "results written by each child");
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < interpreted.results.size(); i++) {
            if (!interpreted.results.get(i).equals(compiled.results.get(i))) {
                differences.add(interpreted.results.get(i) + " interpreted, " + compiled.results.get(i) + " compiled");
            }
        }
        assertTrue(differences.isEmpty(), differences.size() + " of " + interpreted.results.size()
                + " results differ between tiers, first: " + differences.stream().limit(3).toList());
    }

    /** A line of -XX:+PrintCompilation that installs a normal (not on-stack-replacement) compilation. */
    private static boolean isCompilationOf(String line, String method) {
        return line.contains(method) && !line.contains("%") && !line.contains("made not entrant")
                && !line.contains("made zombie") && !line.contains("COMPILE SKIPPED");
    }

    private record Child(List<String> results, List<String> jitLog) {
    }

    private Child fingerprint(String name, int warmups, String... jitFlags) throws IOException, InterruptedException {
        Path results = dir.resolve(name + ".txt");
        Path out = dir.resolve(name + ".stdout");
        Path err = dir.resolve(name + ".stderr");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("@" + Path.of(System.getProperty("tala.repo", "..")).resolve("jvm.options"));
        cmd.addAll(List.of(jitFlags));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(KernelFingerprint.class.getName());
        cmd.add(Integer.toString(warmups));
        cmd.add(results.toString());
        Process child = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(120, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor();
            throw new AssertionError(name + " fingerprint child did not finish within 120 s");
        }
        assertEquals(0, child.exitValue(), name + " fingerprint child failed: " + Files.readString(err));
        return new Child(Files.readAllLines(results), Files.readAllLines(out));
    }
}
