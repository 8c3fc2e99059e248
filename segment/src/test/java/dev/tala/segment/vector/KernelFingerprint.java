package dev.tala.segment.vector;

import dev.tala.segment.EmbeddingType;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Writes the exact bits of every kernel's result over a fixed set of seeded vectors to the file
 * {@code args[1]}, one line per call, after running the same calls {@code args[0]} times first.
 * {@link KernelDeterminismTest} runs it in child JVMs that execute the kernels at different JIT
 * tiers and compares the files. A file rather than stdout, where the JIT's log goes.
 */
public final class KernelFingerprint {
    /** Dimensions around the lane and unroll boundaries of every kernel, plus the product's 384. */
    static final int[] DIMENSIONS = {1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 384, 1000};
    static final int VECTORS_PER_DIMENSION = 4;
    private static final long SEED = 0x7a1a_db5eedL;

    private KernelFingerprint() {
    }

    public static void main(String[] args) throws IOException {
        int warmups = Integer.parseInt(args[0]);
        Path out = Path.of(args[1]);
        try (Arena arena = Arena.ofConfined()) {
            Case[] cases = cases(arena);
            for (int round = 0; round < warmups; round++) {
                for (Case c : cases) {
                    c.run();
                }
            }
            List<String> lines = new ArrayList<>();
            for (Case c : cases) {
                lines.add(c.type + " dim=" + c.query.dimension() + " " + Long.toHexString(c.run()));
            }
            Files.write(out, lines);
        }
    }

    private record Case(EmbeddingType type, Query query, MemorySegment stored) {
        long run() {
            return VectorKernels.dotAndNorm(type, query, stored, 0);
        }
    }

    private static Case[] cases(Arena arena) {
        Random r = new Random(SEED);
        EmbeddingType[] types = EmbeddingType.values();
        Case[] cases = new Case[types.length * DIMENSIONS.length * VECTORS_PER_DIMENSION];
        int n = 0;
        for (EmbeddingType type : types) {
            for (int dim : DIMENSIONS) {
                for (int i = 0; i < VECTORS_PER_DIMENSION; i++) {
                    MemorySegment stored = arena.allocate(type.vectorBytes(dim), 64);
                    StoredVectors.store(type, StoredVectors.vector(r, dim), stored, 0);
                    cases[n++] = new Case(type, Query.of(StoredVectors.vector(r, dim)), stored);
                }
            }
        }
        return cases;
    }
}
