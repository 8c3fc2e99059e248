package dev.tala.core.testing;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random intents for tests in every module. Values are drawn to hit edges of the format:
 * empty and multi-byte commands, repeated commands, -0.0 and subnormal floats, no or many edges,
 * edges to ids from a shared pool (so that they point at each other), outcomes present or not.
 */
public final class RandomIntents {
    private static final String[] COMMANDS = {
        "", "ls", "kubectl rollout restart deploy/api", "terraform apply -auto-approve",
        "git push origin main", "make build", "déployer l'application ✓", "echo 🚀",
    };

    private final Random random;
    private final int dimension;
    private final List<IntentId> pool = new ArrayList<>();

    public RandomIntents(long seed, int dimension) {
        this.random = new Random(seed);
        this.dimension = dimension;
    }

    public Random random() {
        return random;
    }

    /** A fresh id, remembered so later intents can point at it. */
    public IntentId newId() {
        IntentId id = IntentId.of(random.nextLong(), random.nextLong());
        pool.add(id);
        return id;
    }

    /** {@code n} fresh ids in ascending order, as time-ordered ids arrive when written as they are made. */
    public List<IntentId> newIdsAscending(int n) {
        List<IntentId> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ids.add(newId());
        }
        ids.sort(null);
        return ids;
    }

    /** An id seen before (or a new one when none was). */
    public IntentId knownId() {
        return pool.isEmpty() ? newId() : pool.get(random.nextInt(pool.size()));
    }

    public Intent next() {
        return next(newId());
    }

    public Intent next(IntentId id) {
        Intent.Builder b = Intent.builder()
                .id(id)
                .timestampNs(Math.min(random.nextLong() & Long.MAX_VALUE, IntentLimits.MAX_TIMESTAMP_NS))
                .contextHash(random.nextLong())
                .confidence(random.nextInt(10) == 0 ? (random.nextBoolean() ? 0f : 1f) : random.nextFloat())
                .status(Status.values()[random.nextInt(Status.values().length)])
                .command(command())
                .embedding(embedding());
        if (random.nextBoolean()) {
            b.outcome(new Outcome(random.nextLong() & Long.MAX_VALUE, random.nextInt()));
        }
        int edges = random.nextInt(4) == 0 ? 0 : random.nextInt(6);
        List<Edge> list = new ArrayList<>();
        for (int i = 0; i < edges; i++) {
            list.add(new Edge(random.nextInt(4) == 0 ? IntentId.of(random.nextLong(), random.nextLong()) : knownId(),
                    Relation.values()[random.nextInt(Relation.values().length)], random.nextFloat() * 2 - 1));
        }
        return b.edges(list).build();
    }

    public String command() {
        if (random.nextInt(3) > 0) {
            return COMMANDS[random.nextInt(COMMANDS.length)];
        }
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(random.nextInt(10) == 0 ? 3000 : 80);
        for (int i = 0; i < n; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    public float[] embedding() {
        float[] v = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            v[i] = switch (random.nextInt(50)) {
                case 0 -> -0.0f;
                case 1 -> Float.MIN_VALUE;
                case 2 -> 0f;
                default -> (float) random.nextGaussian();
            };
        }
        return v;
    }
}
