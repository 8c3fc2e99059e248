package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An outcome update of an intent that a compaction wrote to a cold level of another type.
 * TalaDB.attachOutcome promises to set the status and outcome; Options.coldEmbeddingType that
 * such an intent reads back "that type's approximation" once compacted there. The update
 * re-encodes the cold floats in the database's own type instead (OpResolver), so get returns a
 * third set of floats, and the next compaction into the cold level quantizes those again.
 */
class ColdLevelOutcomeTest {
    static final float[] PUT = {0.123f, -0.77f, 0.3333f, 0.999f};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "database {0}, cold {1}")
    @CsvSource({"F16, INT8", "BF16, INT8", "INT8, F16", "INT8, BF16"})
    void anOutcomeUpdateLeavesTheEmbeddingOfAColdIntentAsItReads(EmbeddingType type, EmbeddingType cold) {
        Options options = Options.builder().dimension(PUT.length).embeddingType(type).durability(Durability.none())
                .coldEmbeddingType(cold, 1).build();
        IntentId id = IntentId.of(1, 1);
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(Intent.builder().id(id).timestampNs(5).embedding(PUT).build());
            db.compact();
            float[] inColdLevel = db.get(id).orElseThrow().embedding();
            db.attachOutcome(id, Status.SUCCESS, null);
            assertArrayEquals(inColdLevel, db.get(id).orElseThrow().embedding(), "after the outcome update");
            db.compact();
            assertArrayEquals(inColdLevel, db.get(id).orElseThrow().embedding(), "compacted into the cold level again");
        }
    }
}
