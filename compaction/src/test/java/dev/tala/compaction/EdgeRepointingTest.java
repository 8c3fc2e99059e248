package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Relation;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.IncomingEdge;
import dev.tala.segment.SegmentReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An edge whose target was in another segment is stored through the foreign-id table; once
 * compaction puts source and target in one output, the writer must store it as a local edge,
 * and the edge must still lead to the same id.
 */
class EdgeRepointingTest {
    private static final int DIM = 8;

    @TempDir
    Path dir;

    private final RandomIntents intents = new RandomIntents(11, DIM);
    private final IntentId source = IntentId.of(0x0190_0000_0000_7000L, 1);
    private final IntentId target = IntentId.of(0x0190_0000_0000_7000L, 2);
    private final IntentId elsewhere = IntentId.of(0x0190_0000_0000_7000L, 3); // in no segment at all

    @Test
    void aTargetThatJoinsTheSourcesOutputBecomesLocal() throws Exception {
        Intent src = intents.next(source).toBuilder()
                .edges(List.of(new Edge(target, Relation.CAUSAL, 0.5f), new Edge(elsewhere, Relation.RETRY, 1f)))
                .build();
        Intent tgt = intents.next(target).toBuilder().edges(List.of()).build();
        List<SegmentReader> inputs = new ArrayList<>();
        inputs.add(SegmentFiles.writeInput(dir, 2, DIM, EmbeddingType.F32, List.of(IntentVersion.put(20, src))));
        inputs.add(SegmentFiles.writeInput(dir, 1, DIM, EmbeddingType.F32, List.of(IntentVersion.put(10, tgt))));
        try {
            assertEquals(2, inputs.get(0).foreignIdCount(), "before: both targets are foreign to the source's segment");

            CompactionResult result = job(CompactionDefaults.TARGET_OUTPUT_BYTES).run(inputs, 1, true);

            assertEquals(1, result.outputs().size());
            try (SegmentReader out = SegmentReader.open(SegmentFiles.LOCAL, result.outputs().getFirst().path())) {
                out.verify();
                assertEquals(1, out.foreignIdCount(), "after: only the target outside every input stays foreign");
                assertEquals(elsewhere, out.foreignId(0));
                int srcRow = out.find(source);
                assertEquals(src.edges(), out.edgesFrom(srcRow), "the edges lead to the same ids");
                List<IncomingEdge> in = out.edgesTo(target);
                assertEquals(1, in.size(), "the reverse block sees the now-local edge");
                assertEquals(srcRow, in.getFirst().sourceRow());
                assertEquals(Relation.CAUSAL, in.getFirst().relation());
            }
        } finally {
            SegmentFiles.closeAll(inputs);
        }
    }

    @Test
    void aTargetInAnotherOutputStaysForeignButResolves() throws Exception {
        // One row per output: source and target end up in different outputs.
        Intent src = intents.next(source).toBuilder().edges(List.of(new Edge(target, Relation.DEPENDENCY, 2f)))
                .build();
        Intent tgt = intents.next(target).toBuilder().edges(List.of(new Edge(source, Relation.BRANCH, 3f))).build();
        List<SegmentReader> inputs = new ArrayList<>();
        inputs.add(SegmentFiles.writeInput(dir, 2, DIM, EmbeddingType.F32, List.of(IntentVersion.put(20, src))));
        inputs.add(SegmentFiles.writeInput(dir, 1, DIM, EmbeddingType.F32, List.of(IntentVersion.put(10, tgt))));
        try {
            CompactionResult result = job(1).run(inputs, 1, true);
            assertEquals(2, result.outputs().size());
            for (var summary : result.outputs()) {
                try (SegmentReader out = SegmentReader.open(SegmentFiles.LOCAL, summary.path())) {
                    assertEquals(1, out.foreignIdCount());
                    IntentVersion v = out.version(0);
                    Intent expected = v.id().equals(source) ? src : tgt;
                    assertEquals(expected.edges(), out.edgesFrom(0));
                    assertTrue(out.edgesTo(out.foreignId(0)).size() == 1);
                }
            }
        } finally {
            SegmentFiles.closeAll(inputs);
        }
    }

    private CompactionJob job(long targetBytes) {
        AtomicLong ids = new AtomicLong(100);
        return new CompactionJob(SegmentFiles.LOCAL,
                CompactionJobOptions.defaults(EmbeddingType.F32).withTargetOutputBytes(targetBytes).withSync(false),
                ids::getAndIncrement, id -> SegmentFiles.path(dir, id));
    }
}
