package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Snapshot#newestTimestamp} over segments that hold tombstones only. */
class NewestTimestampTest {
    @TempDir
    Path dir;

    /**
     * No intent was ever put, so no timestamp can be the newest: the answer is empty, and exact
     * by the javadoc's own terms (no intent was deleted or replaced). A flush wrote the delete's
     * tombstone into a segment, whose footer range is [0, 0], and the answer became 0: the same
     * data read differently before and after a flush.
     */
    @Test
    void aSegmentOfOnlyTombstonesHasNoNewestTimestamp() {
        Options o = Options.builder().dimension(2).durability(Durability.none()).build();
        try (TalaDB db = TalaDB.open(dir, o)) {
            db.delete(IntentId.of(1, 1));
            try (Snapshot s = db.snapshot()) {
                assertEquals(OptionalLong.empty(), s.newestTimestamp(), "in the memtable");
            }
            db.flush();
            try (Snapshot s = db.snapshot()) {
                assertEquals(OptionalLong.empty(), s.newestTimestamp(), "after the flush");
            }
        }
    }

    /** A segment holding puts beside tombstones still answers from its footer. */
    @Test
    void aSegmentWithPutsAndTombstonesAnswersItsNewestPut() {
        Options o = Options.builder().dimension(2).durability(Durability.none()).build();
        try (TalaDB db = TalaDB.open(dir, o)) {
            db.delete(IntentId.of(1, 1));
            db.put(Intent.builder().id(IntentId.of(1, 2)).timestampNs(77).embedding(new float[] {1, 0}).build());
            db.flush();
            try (Snapshot s = db.snapshot()) {
                assertEquals(OptionalLong.of(77), s.newestTimestamp());
            }
        }
    }
}
