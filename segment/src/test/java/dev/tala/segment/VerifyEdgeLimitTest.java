package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * verify() refuses a segment whose row has more than IntentLimits.MAX_EDGES (1024) edges, as
 * every read of that row does; it used to call it clean. Made by moving one CSR row pointer
 * (CSR checksum recomputed) in a segment without a CSC block.
 */
class VerifyEdgeLimitTest {
    @TempDir
    Path dir;

    @Test
    void verifyRefusesWhatVersionRefuses() throws IOException {
        List<IntentVersion> versions = new ArrayList<>();
        for (int row = 0; row < 2; row++) {
            List<Edge> edges = new ArrayList<>();
            for (int k = 0; k < 1000; k++) {
                edges.add(new Edge(IntentId.of(2, row * 1000L + k), Relation.CAUSAL, 1f));
            }
            versions.add(IntentVersion.put(row + 1, Intent.builder().id(IntentId.of(1, row + 1)).timestampNs(1)
                    .confidence(1f).status(Status.SUCCESS).command("c").embedding(new float[] {1}).edges(edges).build()));
        }
        Path file = dir.resolve("s.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE).write(file, SegmentWriteOptions.of(1, 1, 1, EmbeddingType.F32)
                .withReverseEdges(false).withSync(false), versions);
        TbfEdit t = new TbfEdit(Files.readAllBytes(file));
        long csr = t.offset(RegionKind.CSR);
        t.s.set(U64, csr + POINTER_BYTES, 2000L); // ptr[1] = ptr[2] = E: row 0 owns all 2000 edges
        t.fixRegion(RegionKind.CSR);
        Files.write(file, t.b);
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, file)) {
            CorruptionException read = assertThrows(CorruptionException.class, () -> r.version(0));
            assertTrue(read.getMessage().contains("2000 edges"), read.getMessage());
            List<CorruptionException> found = r.verifyAll();
            assertTrue(found.stream().anyMatch(p -> p.what().equals("CSR row 0 has 2000 edges, the limit is 1024")),
                    "verify accepts a row that every read refuses: " + found);
        }
    }
}
