package dev.tala.segment;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The content of the committed golden segment (src/test/resources/golden/tiny.tbf). Regenerate
 * only on a deliberate format change: {@code java -cp ... dev.tala.segment.GoldenSegment OUT}.
 */
final class GoldenSegment {
    static final IntentId A = IntentId.parse("00000000-0000-7000-8000-000000000001");
    static final IntentId B = IntentId.parse("00000000-0000-7000-8000-000000000002");
    static final IntentId C = IntentId.parse("00000000-0000-7000-8000-000000000003");
    static final IntentId D = IntentId.parse("00000000-0000-7000-8000-000000000004");
    static final IntentId FOREIGN = IntentId.parse("ffffffff-0000-7000-8000-0000000000ff");
    static final long CREATED_AT = 1_700_000_000_000_000_000L;
    static final long SEGMENT_ID = 42;

    private GoldenSegment() {
    }

    static SegmentWriteOptions options() {
        return SegmentWriteOptions.of(SEGMENT_ID, CREATED_AT, 4, EmbeddingType.F32);
    }

    static List<IntentVersion> versions() {
        Intent a = Intent.builder().id(A).timestampNs(1_700_000_000_000_000_001L).contextHash(0x1111)
                .confidence(0.875f).status(Status.SUCCESS).outcome(new Outcome(1500, 0)).command("git status")
                .embedding(new float[] {1f, 0f, -0.5f, 0.25f})
                .addEdge(B, Relation.CAUSAL, 1.0f).addEdge(FOREIGN, Relation.DEPENDENCY, 0.5f).build();
        Intent b = Intent.builder().id(B).timestampNs(1_700_000_000_000_000_002L).contextHash(0x2222)
                .confidence(0.75f).status(Status.PENDING).command("make test")
                .embedding(new float[] {0f, 1f, 0.5f, -2f})
                .addEdge(C, Relation.RETRY, 0.25f).build();
        Intent d = Intent.builder().id(D).timestampNs(1_700_000_000_000_000_004L).contextHash(0x4444)
                .confidence(1.0f).status(Status.FAILURE).outcome(new Outcome(250, 2)).command("git status")
                .embedding(new float[] {0.125f, -1f, 2f, 4f})
                .addEdge(A, Relation.TEMPORAL, 0.75f).build();
        return List.of(IntentVersion.put(10, a), IntentVersion.put(11, b), IntentVersion.tombstone(C, 12),
                IntentVersion.put(13, d));
    }

    public static void main(String[] args) throws IOException {
        SegmentSummary s = new SegmentWriter(LocalFileLayer.INSTANCE).write(Path.of(args[0]), options(), versions());
        System.out.println(s);
    }
}
