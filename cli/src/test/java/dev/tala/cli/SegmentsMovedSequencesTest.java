package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tala.cli.InProcess.Run;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.segment.SegmentInfo;
import dev.tala.segment.SegmentReader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction that moves segments sharing no id gives each MANIFEST entry the sequence range
 * of the whole run; {@code segments} documents the range in the segment, and showed the run's
 * (1..300000 for every segment of a moved demo database).
 */
class SegmentsMovedSequencesTest {
    @TempDir
    Path work;

    @Test
    void aMovedSegmentShowsItsOwnSequenceRange() throws Exception {
        Path db = work.resolve("db");
        try (TalaDB t = TalaDB.open(db, Options.builder().dimension(4).backgroundCompaction(false)
                .targetSegmentBytes(4096).build())) {
            for (int flush = 1; flush <= 3; flush++) {
                for (int i = 0; i < 5; i++) {
                    t.put(Intent.builder().id(IntentId.of(flush, i)).timestampNs(flush * 100L + i).confidence(0.5f)
                            .status(Status.PENDING).command("step " + i).embedding(new float[] {1, 2, 3, 4}).build());
                }
                t.flush();
            }
            t.compact();
            assertTrue(t.stats().compactionMoves() > 0, "the three segments share no id, so they are moved (each holds more than a quarter of the 4 KiB target)");
        }

        Run run = tala("segments", "--db", db.toString(), "--json");
        assertEquals(0, run.exit(), run.out() + run.err());
        JsonNode rows = new ObjectMapper().readTree(run.out());
        assertEquals(3, rows.size(), run.out());
        DatabaseLayout layout = new DatabaseLayout(db);
        for (JsonNode row : rows) {
            SegmentInfo file = SegmentReader.readSummary(LocalFileLayer.INSTANCE, layout.segmentFile(row.get("id").asLong()));
            assertEquals(file.minSequence(), row.get("min_sequence").asLong(), row.toString());
            assertEquals(file.maxSequence(), row.get("max_sequence").asLong(), row.toString());
            assertEquals(4, file.maxSequence() - file.minSequence(), "five puts per segment: " + row);
        }
    }
}
