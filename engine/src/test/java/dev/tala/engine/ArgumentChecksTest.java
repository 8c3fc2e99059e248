package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.error.ReadOnlyException;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.SearchFilter;
import dev.tala.segment.vector.Metric;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of the API's arguments: a null gets an error naming the argument, before the
 * call does anything, and a read-only database refuses every write, even an empty one.
 */
class ArgumentChecksTest {
    @TempDir
    Path dir;

    private static void refusedNaming(String message, Executable call) {
        assertEquals(message, assertThrows(NullPointerException.class, call).getMessage());
    }

    /** These threw a NullPointerException without a message. */
    @Test
    void theOptionsBuilderNamesANullArgument() {
        refusedNaming("durability", () -> Options.builder().durability(null));
        refusedNaming("recoveryMode", () -> Options.builder().recoveryMode(null));
        refusedNaming("fileLayer", () -> Options.builder().fileLayer(null));
        refusedNaming("compactionPolicy", () -> Options.builder().compactionPolicy(null));
    }

    /** It said 'Cannot invoke "Object.equals(Object)" because "e0" is null'. */
    @Test
    void aSearchFilterNamesANullStatus() {
        refusedNaming("statuses holds null",
                () -> new SearchFilter(0, 1, new HashSet<>(Arrays.asList(Status.SUCCESS, null)), 0));
    }

    /**
     * compact(null) and compactRange(.., null) flushed the memtable before they threw, and
     * compactPending(null) passed whenever nothing was pending.
     */
    @Test
    void aNullProgressListenerIsRefusedBeforeAnythingIsFlushed() {
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(4).durability(Durability.none())
                .backgroundCompaction(false).build())) {
            db.put(intent());
            refusedNaming("progress", () -> db.compact(null));
            refusedNaming("progress", () -> db.compactRange(0, 10, null));
            refusedNaming("progress", () -> db.compactPending(null));
            assertEquals(0, db.liveSegments().size(), "a refused call flushed the memtable");
            refusedNaming("batch", () -> db.write(null));
        }
    }

    /** An empty batch returned a sequence number where every other write throws. */
    @Test
    void aReadOnlyDatabaseRefusesEvenAnEmptyBatch() {
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(4).durability(Durability.none()).build())) {
            db.put(intent());
        }
        try (TalaDB readOnly = TalaDB.openReadOnly(dir)) {
            assertThrows(ReadOnlyException.class, () -> readOnly.write(new WriteBatch()));
        }
    }

    /**
     * A database failed by a force is read-only until reopened, and refused every write but an
     * empty batch, which returned a sequence number as if it had been applied.
     */
    @Test
    void aFailedDatabaseRefusesEvenAnEmptyBatch() {
        FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolve("stash"));
        try (TalaDB db = TalaDB.open(dir.resolve("db"), Options.builder().dimension(4).durability(Durability.none())
                .backgroundCompaction(false).fileLayer(fault).build())) {
            db.put(intent());
            fault.failForces(p -> true);
            assertThrows(DatabaseFailedException.class, db::syncWal);
            assertThrows(DatabaseFailedException.class, () -> db.delete(IntentId.of(1, 1)));
            assertThrows(DatabaseFailedException.class, () -> db.write(new WriteBatch()));
        }
    }

    /** A negative depth answered an empty list, where a search with k below 1 throws. */
    @Test
    void aTraversalRefusesANegativeDepth() {
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(4).durability(Durability.none()).build())) {
            db.put(intent());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.traverse(IntentId.of(1, 1), -1, Set.of(), Direction.OUTGOING));
            assertEquals("depth must be at least 0, got -1", e.getMessage());
            assertEquals(List.of(), db.traverse(IntentId.of(1, 1), 0, Set.of(), Direction.OUTGOING));
        }
    }

    /**
     * A snapshot's scan and forEachIntent took a null consumer without a word whenever nothing was
     * there to hand it (an empty range, an empty database), and threw 'Cannot invoke
     * "java.util.function.Predicate.test(Object)" because "consumer" is null' otherwise; a null
     * metric got 'Cannot invoke "dev.tala.segment.vector.Metric.query(float[])" because "metric"
     * is null'.
     */
    @Test
    void aSnapshotNamesANullConsumerOrMetricWhetherOrNotThereIsAnythingToRead() {
        try (TalaDB db = TalaDB.open(dir, Options.builder().dimension(4).durability(Durability.none()).build())) {
            try (Snapshot empty = db.snapshot()) {
                refusedNaming("consumer", () -> empty.scan(0, 10, (Predicate<Intent>) null));
                refusedNaming("action", () -> empty.forEachIntent(null));
                refusedNaming("metric", () -> empty.search(new float[] {1, 0, 0, 0}, 1, (Metric) null, SearchFilter.ALL));
            }
            db.put(intent());
            try (Snapshot one = db.snapshot()) {
                refusedNaming("consumer", () -> one.scan(0, 10, (Predicate<Intent>) null));
                refusedNaming("action", () -> one.forEachIntent(null));
                refusedNaming("metric", () -> one.search(new float[] {1, 0, 0, 0}, 1, (Metric) null, SearchFilter.ALL));
            }
        }
    }

    private static Intent intent() {
        return Intent.builder().id(IntentId.of(1, 1)).embedding(new float[] {1, 0, 0, 0}).build();
    }
}
