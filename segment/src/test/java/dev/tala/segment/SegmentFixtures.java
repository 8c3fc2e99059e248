package dev.tala.segment;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/** Random and fixed segment contents for the tests. */
final class SegmentFixtures {
    private SegmentFixtures() {
    }

    /** The shape of a random segment. */
    record Shape(int rows, int dimension, EmbeddingType type, boolean reverse, double tombstoneRate,
            int maxEdges, boolean longCommands, long seed) {
    }

    static IntentId randomId(Random r) {
        return IntentId.of(r.nextLong(), r.nextLong());
    }

    static float[] randomVector(Random r, int dim, float scale) {
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
            v[i] = (float) (r.nextGaussian() * scale);
        }
        return v;
    }

    static String randomCommand(Random r, boolean longCommands) {
        if (longCommands && r.nextInt(3) == 0) {
            StringBuilder b = new StringBuilder();
            int len = 20 + r.nextInt(300);
            for (int i = 0; i < len; i++) {
                int kind = r.nextInt(10);
                b.append(kind == 0 ? (char) ('\u00e0' + r.nextInt(20)) : kind == 1 ? "\u2603" : (char) ('a' + r.nextInt(26)));
            }
            return b.toString();
        }
        String[] common = {"deploy api", "git push origin main", "", "kubectl rollout restart deploy/web",
            "make test", "cargo build --release"};
        return common[r.nextInt(common.length)];
    }

    /** Versions sorted by id with tombstones, outcomes, local, foreign and tombstone-targeted edges. */
    static List<IntentVersion> randomVersions(Shape s) {
        Random r = new Random(s.seed());
        TreeMap<IntentId, Boolean> idSet = new TreeMap<>();
        while (idSet.size() < s.rows()) {
            idSet.put(randomId(r), r.nextDouble() < s.tombstoneRate());
        }
        List<IntentId> ids = new ArrayList<>(idSet.keySet());
        List<IntentId> foreign = new ArrayList<>();
        for (int i = 0; i < 1 + s.rows() / 10; i++) {
            foreign.add(randomId(r));
        }
        List<IntentVersion> out = new ArrayList<>();
        for (IntentId id : ids) {
            long seq = r.nextInt(4) == 0 ? r.nextLong() & Long.MAX_VALUE : r.nextInt(1_000_000);
            if (idSet.get(id)) {
                out.add(IntentVersion.tombstone(id, seq));
                continue;
            }
            List<Edge> edges = new ArrayList<>();
            int degree = s.maxEdges() == 0 ? 0 : r.nextInt(s.maxEdges() + 1);
            for (int k = 0; k < degree; k++) {
                IntentId target = r.nextInt(3) == 0 ? foreign.get(r.nextInt(foreign.size())) : ids.get(r.nextInt(ids.size()));
                edges.add(new Edge(target, Relation.values()[r.nextInt(Relation.values().length)],
                        r.nextInt(5) == 0 ? -r.nextFloat() * 100 : r.nextFloat()));
            }
            Intent.Builder b = Intent.builder()
                    .id(id)
                    .timestampNs(r.nextInt(4) == 0 ? r.nextLong() & Long.MAX_VALUE : 1_700_000_000_000_000_000L + r.nextInt(1_000_000))
                    .contextHash(r.nextLong())
                    .confidence(r.nextInt(10) == 0 ? 1.0f : r.nextFloat())
                    .status(Status.values()[r.nextInt(Status.values().length)])
                    .command(randomCommand(r, s.longCommands()))
                    .embedding(randomVector(r, s.dimension(), r.nextInt(5) == 0 ? 100f : 1f))
                    .edges(edges);
            if (r.nextBoolean()) {
                b.outcome(new Outcome(r.nextLong() & Long.MAX_VALUE, r.nextInt()));
            }
            out.add(IntentVersion.put(seq, b.build()));
        }
        return out;
    }

    static SegmentWriteOptions options(Shape s) {
        return SegmentWriteOptions.of(s.seed() & 0xFFFF, 1_700_000_000_000_000_000L, s.dimension(), s.type())
                .withReverseEdges(s.reverse());
    }

    static SegmentSummary write(Path file, SegmentWriteOptions options, List<IntentVersion> versions) throws IOException {
        return new SegmentWriter(LocalFileLayer.INSTANCE).write(file, options, versions);
    }

    static SegmentReader open(Path file) throws IOException {
        return SegmentReader.open(LocalFileLayer.INSTANCE, file);
    }

    /** A small segment with edges (incl. foreign and to a tombstone), used by the corruption tests. */
    static List<IntentVersion> smallWithEdges() {
        Shape s = new Shape(5, 8, EmbeddingType.F32, true, 0, 0, false, 42);
        List<IntentVersion> base = randomVersions(s);
        List<IntentVersion> out = new ArrayList<>();
        IntentId foreign = IntentId.of(0x7fffL, 1);
        for (int i = 0; i < base.size(); i++) {
            IntentVersion v = base.get(i);
            if (i == 2) {
                out.add(IntentVersion.tombstone(v.id(), v.sequence()));
                continue;
            }
            Intent intent = v.intent().toBuilder()
                    .edges(List.of(
                            new Edge(base.get((i + 1) % base.size()).id(), Relation.CAUSAL, 0.5f),
                            new Edge(base.get(2).id(), Relation.RETRY, 1f),
                            new Edge(foreign, Relation.DEPENDENCY, 0.25f)))
                    .command("command number " + (i % 2))
                    .build();
            out.add(IntentVersion.put(v.sequence(), intent));
        }
        return out;
    }
}
