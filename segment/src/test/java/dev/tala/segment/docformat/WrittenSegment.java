package dev.tala.segment.docformat;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/** A segment written through the public writer, with the input it was written from. */
record WrittenSegment(String name, SegmentWriteOptions options, List<IntentVersion> versions, DocTbf file) {

    static WrittenSegment write(Path dir, String name, SegmentWriteOptions options, List<IntentVersion> versions)
            throws IOException {
        Path path = dir.resolve(name + ".tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE).write(path, options, versions);
        return new WrittenSegment(name, options, versions, DocTbf.read(path));
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Rows sorted by id with tombstones, outcomes, shared commands, local, foreign and
     * tombstone-targeted edges; the commands get long enough for zstd when {@code longCommands}.
     */
    static List<IntentVersion> randomRows(long seed, int rows, int dim, double tombstoneRate, boolean longCommands,
            boolean edges) {
        Random r = new Random(seed);
        TreeMap<IntentId, Boolean> ids = new TreeMap<>();
        while (ids.size() < rows) {
            ids.put(IntentId.of(r.nextLong(), r.nextLong()), r.nextDouble() < tombstoneRate);
        }
        List<IntentId> local = new ArrayList<>(ids.keySet());
        List<IntentId> foreign = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            foreign.add(IntentId.of(r.nextLong(), r.nextLong()));
        }
        List<IntentVersion> out = new ArrayList<>();
        for (IntentId id : local) {
            long seq = 1 + r.nextInt(1_000_000);
            if (ids.get(id)) {
                out.add(IntentVersion.tombstone(id, seq));
                continue;
            }
            float[] v = new float[dim];
            float scale = r.nextInt(4) == 0 ? 70_000f : 1f;
            for (int i = 0; i < dim; i++) {
                v[i] = (float) (r.nextGaussian() * scale);
            }
            Intent.Builder b = Intent.builder().id(id)
                    .timestampNs(1_700_000_000_000_000_000L + r.nextInt(1_000_000))
                    .contextHash(r.nextLong())
                    .confidence(r.nextFloat())
                    .status(Status.values()[r.nextInt(4)])
                    .command(longCommands ? "run step " + r.nextInt(8) + " of the very long nightly pipeline job"
                            : "cmd" + r.nextInt(3))
                    .embedding(v);
            if (edges) {
                List<Edge> es = new ArrayList<>();
                int degree = r.nextInt(4);
                for (int k = 0; k < degree; k++) {
                    IntentId target = r.nextInt(3) == 0 ? foreign.get(r.nextInt(foreign.size()))
                            : local.get(r.nextInt(local.size()));
                    es.add(new Edge(target, Relation.values()[r.nextInt(5)], r.nextFloat() * 2 - 1));
                }
                b.edges(es);
            }
            if (r.nextBoolean()) {
                b.outcome(new Outcome(r.nextInt(1_000_000), r.nextInt(256) - 128));
            }
            out.add(IntentVersion.put(seq, b.build()));
        }
        return out;
    }

    /** The shapes every documented field is checked on. */
    static List<WrittenSegment> shapes(Path dir) throws IOException {
        long created = 1_700_000_000_123_456_789L;
        List<WrittenSegment> out = new ArrayList<>();
        out.add(write(dir, "f32-mixed", SegmentWriteOptions.of(7, created, 5, EmbeddingType.F32),
                randomRows(1, 70, 5, 0.2, false, true)));
        out.add(write(dir, "f16-no-csc", SegmentWriteOptions.of(8, created, 33, EmbeddingType.F16)
                .withReverseEdges(false), randomRows(2, 40, 33, 0.1, false, true)));
        out.add(write(dir, "bf16-compacted-zstd", SegmentWriteOptions.of(9, created, 16, EmbeddingType.BF16)
                .withCompacted(true), randomRows(3, 130, 16, 0.15, true, true)));
        out.add(write(dir, "int8", SegmentWriteOptions.of(10, created, 20, EmbeddingType.INT8),
                randomRows(4, 65, 20, 0.3, false, true)));
        out.add(write(dir, "only-tombstones", SegmentWriteOptions.of(11, created, 4, EmbeddingType.F32),
                randomRows(5, 3, 4, 1.0, false, false)));
        out.add(write(dir, "empty", SegmentWriteOptions.of(12, created, 4, EmbeddingType.F32), List.of()));
        out.add(write(dir, "no-edges-no-outcome", SegmentWriteOptions.of(13, created, 3, EmbeddingType.F32),
                randomRows(6, 1, 3, 0, false, false).stream()
                        .map(v -> IntentVersion.put(v.sequence(), v.intent().toBuilder().outcome(null)
                                .status(Status.PENDING).build()))
                        .toList()));
        return out;
    }
}
