package dev.tala.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.StoredRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merge on a hand-made example where every outcome is known. */
class MergingIteratorTest {
    private static final int DIM = 4;

    @TempDir
    Path dir;

    private final RandomIntents intents = new RandomIntents(7, DIM);
    private final IntentId a = IntentId.of(0, 1);
    private final IntentId b = IntentId.of(0, 2);
    private final IntentId c = IntentId.of(0, 3);
    private final IntentId d = IntentId.of(0x8000_0000_0000_0000L, 0); // sorts last: ids are unsigned
    private final List<SegmentReader> readers = new ArrayList<>();
    private Intent aNew;
    private Intent bOld;
    private Intent dOld;

    @BeforeEach
    void writeSegments() throws Exception {
        aNew = intents.next(a);
        Intent aOld = intents.next(a);
        bOld = intents.next(b);
        Intent cOld = intents.next(c);
        dOld = intents.next(d);
        // Newest first: seq 20..29, then 10..19, then 1..9.
        readers.add(SegmentFiles.writeInput(dir, 3, DIM, EmbeddingType.F32, List.of(
                IntentVersion.put(21, aNew), IntentVersion.tombstone(c, 22))));
        readers.add(SegmentFiles.writeInput(dir, 2, DIM, EmbeddingType.F32, List.of(
                IntentVersion.put(11, aOld), IntentVersion.tombstone(b, 12))));
        readers.add(SegmentFiles.writeInput(dir, 1, DIM, EmbeddingType.F32, List.of(
                IntentVersion.put(1, aOld), IntentVersion.put(2, bOld), IntentVersion.put(3, cOld),
                IntentVersion.put(4, dOld))));
    }

    @AfterEach
    void close() {
        SegmentFiles.closeAll(readers);
    }

    @Test
    void keepsTheNewestVersionAndTombstonesWhenNotBottommost() {
        MergingIterator merge = new MergingIterator(readers, false);
        List<IntentVersion> out = drain(merge);
        assertEquals(List.of(IntentVersion.put(21, aNew), IntentVersion.tombstone(b, 12),
                IntentVersion.tombstone(c, 22), IntentVersion.put(4, dOld)), out);
        assertEquals(4, merge.shadowedVersions()); // a@11, a@1, b@2, c@3
        assertEquals(0, merge.tombstonesDropped());
        assertEquals(8, merge.rowsConsumed());
        assertEquals(2, merge.rowsConsumed(0));
        assertEquals(4, merge.rowsConsumed(2));
    }

    @Test
    void dropsTombstonesAndWhatTheyHideWhenBottommost() {
        MergingIterator merge = new MergingIterator(readers, true);
        List<IntentVersion> out = drain(merge);
        assertEquals(List.of(IntentVersion.put(21, aNew), IntentVersion.put(4, dOld)), out);
        assertEquals(4, merge.shadowedVersions());
        assertEquals(2, merge.tombstonesDropped());
        assertEquals(2, merge.emitted());
    }

    /**
     * A merge of the two newer inputs: the tombstone of b stays where the outside is said to
     * hold b, and that of c goes where it is said to hold nothing else; a segment outside that
     * holds b and e, asked through its bloom filter, gives the same answer. The oldest input
     * left outside holds c as well, and its bloom filter keeps both tombstones: dropping c's
     * there would bring c back.
     */
    @Test
    void dropsTheTombstonesWhoseIdsNoSegmentOutsideMayHold() throws Exception {
        List<SegmentReader> newer = readers.subList(0, 2);
        MergingIterator told = new MergingIterator(newer, id -> id.equals(b));
        assertEquals(List.of(IntentVersion.put(21, aNew), IntentVersion.tombstone(b, 12)), drain(told));
        assertEquals(1, told.tombstonesDropped());
        assertEquals(1, told.shadowedVersions()); // a@11

        IntentId e = IntentId.of(0, 5);
        try (SegmentReader outside = SegmentFiles.writeInput(dir, 12, DIM, EmbeddingType.F32,
                List.of(IntentVersion.put(5, intents.next(b)), IntentVersion.put(6, intents.next(e))))) {
            MergingIterator probed = new MergingIterator(newer, OlderVersions.inSegments(List.of(outside)));
            assertEquals(List.of(IntentVersion.put(21, aNew), IntentVersion.tombstone(b, 12)), drain(probed));
            assertEquals(1, probed.tombstonesDropped());
        }
        MergingIterator oldestOutside = new MergingIterator(newer, OlderVersions.inSegments(readers.subList(2, 3)));
        assertEquals(List.of(IntentVersion.put(21, aNew), IntentVersion.tombstone(b, 12), IntentVersion.tombstone(c, 22)),
                drain(oldestOutside));
        assertEquals(0, oldestOutside.tombstonesDropped());
    }

    @Test
    void withNoSegmentOutsideEveryTombstoneGoesAsInABottommostMerge() {
        assertEquals(drain(new MergingIterator(readers, true)),
                drain(new MergingIterator(readers, OlderVersions.inSegments(List.of()))));
    }

    @Test
    void theSequenceNumberDecidesNotTheListOrder() {
        // Handing the inputs oldest first must not resurrect old versions.
        List<SegmentReader> reversed = new ArrayList<>(readers.reversed());
        assertEquals(drain(new MergingIterator(readers, false)), drain(new MergingIterator(reversed, false)));
    }

    /**
     * Equal sequence numbers (the same write found in two inputs) go to the input listed first,
     * as the constructor documents, whatever the other input's rows hold.
     */
    @Test
    void aTieInSequenceGoesToTheInputListedFirst() throws Exception {
        IntentId e = IntentId.of(0, 9);
        Intent first = intents.next(e);
        Intent second = intents.next(e);
        try (SegmentReader x = SegmentFiles.writeInput(dir, 10, DIM, EmbeddingType.F32,
                        List.of(IntentVersion.put(30, first)));
                SegmentReader y = SegmentFiles.writeInput(dir, 11, DIM, EmbeddingType.F32,
                        List.of(IntentVersion.put(30, second)))) {
            MergingIterator merge = new MergingIterator(List.of(x, y), false);
            assertEquals(List.of(IntentVersion.put(30, first)), drain(merge));
            assertEquals(1, merge.shadowedVersions());
            assertEquals(List.of(IntentVersion.put(30, second)), drain(new MergingIterator(List.of(y, x), false)));
        }
    }

    @Test
    void anOlderOnlyIdSurvivesUntouched() {
        MergingIterator merge = new MergingIterator(List.of(readers.get(2)), false);
        List<IntentVersion> out = drain(merge);
        assertEquals(SegmentFiles.readAll(readers.get(2)), out);
        assertEquals(0, merge.shadowedVersions());
    }

    @Test
    void anExhaustedMergeSaysSo() {
        MergingIterator merge = new MergingIterator(List.of(), true);
        assertFalse(merge.hasNext());
        assertThrows(NoSuchElementException.class, merge::next);
    }

    /** The merged rows, decoded. */
    private static List<IntentVersion> drain(MergingIterator merge) {
        List<IntentVersion> out = new ArrayList<>();
        while (merge.hasNext()) {
            StoredRow row = merge.next();
            out.add(row.reader().version(row.row()));
        }
        return out;
    }
}
