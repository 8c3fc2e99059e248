package dev.tala.bench.compare;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The benchmark's intents: about 1.6 KB each (a 384-d f32 embedding, a command, two edges),
 * time-ordered UUIDv7-style ids whose millisecond field is the intent's timestamp, so that a
 * RocksDB user keyed by id can answer a time range with a seek. Deterministic per seed.
 */
public final class BenchData {
    public static final int DIMENSION = 384;
    private static final String[] VERBS = {"kubectl rollout restart deploy/", "terraform apply -target=module.",
        "git push origin release/", "helm upgrade --install ", "make build SERVICE=", "psql -c 'vacuum analyze' -d ",
        "aws ecs update-service --service ", "curl -fsS https://"};
    private static final String[] SERVICES = {"api", "web", "payments", "search", "billing", "gateway", "media", "auth"};

    private final List<Intent> intents;
    private final long firstMillis;
    private final long lastMillis;

    private BenchData(List<Intent> intents, long firstMillis, long lastMillis) {
        this.intents = intents;
        this.firstMillis = firstMillis;
        this.lastMillis = lastMillis;
    }

    /** Where every data set's clock starts unless it continues another's. */
    private static final long START_MILLIS = 1_760_000_000_000L;

    public static BenchData generate(int count, long seed) {
        return generate(count, seed, START_MILLIS);
    }

    /** {@code count} intents whose clock runs on from {@code previous}'s last one, as later writes would. */
    public static BenchData after(BenchData previous, int count, long seed) {
        return generate(count, seed, previous.lastMillis);
    }

    private static BenchData generate(int count, long seed, long startMillis) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Intent> out = new ArrayList<>(count);
        long millis = startMillis;
        long first = millis;
        for (int i = 0; i < count; i++) {
            millis += 1 + r.nextInt(40);
            IntentId id = IntentId.of((millis << 16) | 0x7000L | r.nextInt(0x1000),
                    (r.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L);
            List<Edge> edges = new ArrayList<>();
            for (int e = 0; e < 2 && i > 0; e++) {
                edges.add(new Edge(out.get(Math.max(0, i - 1 - r.nextInt(Math.min(i, 50)))).id(),
                        Relation.values()[r.nextInt(5)], (float) r.nextDouble()));
            }
            String service = SERVICES[r.nextInt(SERVICES.length)];
            out.add(Intent.builder()
                    .id(id)
                    .timestampNs(millis * 1_000_000L + r.nextInt(1_000_000))
                    .contextHash(r.nextLong())
                    .confidence((float) (0.5 + r.nextDouble() / 2))
                    .status(Status.values()[r.nextInt(4)])
                    .outcome(new Outcome(r.nextInt(1_000_000_000), r.nextInt(3)))
                    .command(VERBS[r.nextInt(VERBS.length)] + service + " --env=prod --region=eu-west-" + (1 + r.nextInt(3)))
                    .embedding(unitVector(r))
                    .edges(edges)
                    .build());
        }
        return new BenchData(List.copyOf(out), first, millis);
    }

    static float[] unitVector(SplittableRandom r) {
        float[] v = new float[DIMENSION];
        double norm = 0;
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = (float) (r.nextDouble() * 2 - 1);
            norm += v[i] * v[i];
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < DIMENSION; i++) {
            v[i] *= scale;
        }
        return v;
    }

    public List<Intent> intents() {
        return intents;
    }

    public long firstTimestampNs() {
        return firstMillis * 1_000_000L;
    }

    public long lastTimestampNs() {
        return (lastMillis + 1) * 1_000_000L;
    }

    /** Random query vectors for the search benchmark. */
    public static List<float[]> queries(int count, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<float[]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(unitVector(r));
        }
        return out;
    }
}
