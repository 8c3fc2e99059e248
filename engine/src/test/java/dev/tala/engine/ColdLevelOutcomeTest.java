package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.segment.EmbeddingCodec;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An outcome update of an intent that a compaction wrote to a cold level of another type. The
 * update writes a new version, stored like a put in the database's type (so that a flush does
 * not change what get returns), and TalaDB.attachOutcome says so: the cold floats come back
 * rounded to the database's type, and quantized again by the next compaction into the cold
 * level. An audit found this undocumented (attachOutcome promised status and outcome only);
 * this pins the documented floats, rather than "about the same".
 */
class ColdLevelOutcomeTest {
    static final float[] PUT = {0.123f, -0.77f, 0.3333f, 0.999f};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "database {0}, cold {1}")
    @CsvSource({"F16, INT8", "BF16, INT8", "INT8, F16", "INT8, BF16", "F32, INT8"})
    void anOutcomeUpdateStoresTheColdFloatsInTheDatabasesType(EmbeddingType type, EmbeddingType cold) {
        Options options = Options.builder().dimension(PUT.length).embeddingType(type).durability(Durability.none())
                .coldEmbeddingType(cold, 1).build();
        IntentId id = IntentId.of(1, 1);
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(Intent.builder().id(id).timestampNs(5).embedding(PUT).build());
            db.compact();
            float[] inColdLevel = db.get(id).orElseThrow().embedding();
            assertArrayEquals(EmbeddingCodec.stored(cold, EmbeddingCodec.stored(type, PUT)), inColdLevel,
                    "compacted into the cold level");
            db.attachOutcome(id, Status.SUCCESS, null);
            float[] updated = EmbeddingCodec.stored(type, inColdLevel);
            assertArrayEquals(updated, db.get(id).orElseThrow().embedding(), "after the outcome update");
            db.flush();
            assertArrayEquals(updated, db.get(id).orElseThrow().embedding(), "after the update's flush");
            db.compact();
            assertArrayEquals(EmbeddingCodec.stored(cold, updated), db.get(id).orElseThrow().embedding(),
                    "compacted into the cold level again");
        }
    }
}
