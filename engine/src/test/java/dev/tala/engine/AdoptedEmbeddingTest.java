package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.query.SearchFilter;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of edge-case input: an intent built with {@code adoptEmbedding} keeps the
 * caller's array, and a caller may reuse the array after the put (a pooled buffer). The
 * database holds what it acknowledged: the memtable held the caller's array, so a NaN written
 * into it after the put was flushed into a segment that every get, scan and search then failed
 * on, through compactions and reopens, while the WAL that had the acknowledged values was gone.
 */
class AdoptedEmbeddingTest {
    @TempDir
    Path dir;

    @Test
    void aValueWrittenToAnAdoptedArrayAfterThePutNeverReachesASegment() {
        Options options = Options.builder().dimension(2).durability(Durability.none()).backgroundCompaction(false)
                .build();
        float[] buffer = {1, 2};
        Intent adopted = Intent.builder().id(IntentId.of(0, 1)).timestampNs(1).command("a").adoptEmbedding(buffer)
                .build();
        Intent other = Intent.builder().id(IntentId.of(0, 2)).timestampNs(1).command("b").embedding(new float[] {1, 1})
                .build();
        try (TalaDB db = TalaDB.open(dir, options)) {
            db.put(adopted);
            db.put(other);
            buffer[0] = Float.NaN; // the caller reuses its buffer after the put returned
            db.flush();
            assertArrayEquals(new float[] {1, 2}, db.get(adopted.id()).orElseThrow().embedding(), "get after flush");
            assertDoesNotThrow(() -> db.search(new float[] {1, 1}, 5, SearchFilter.ALL), "search after flush");
            assertDoesNotThrow(() -> db.scan(0, 10, 5), "scan after flush");
        }
        try (TalaDB db = TalaDB.open(dir, options)) {
            Intent back = assertDoesNotThrow(() -> db.get(adopted.id()).orElseThrow(), "get after reopen");
            assertArrayEquals(new float[] {1, 2}, back.embedding());
            assertEquals(2, db.scan(0, 10, 5).size());
        }
    }
}
