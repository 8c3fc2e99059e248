package dev.tala.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tala.core.error.CorruptionException;
import dev.tala.segment.SegmentMeta;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Each field a MANIFEST entry and its segment file must agree on, and the differences allowed. */
class ListedSegmentCheckTest {
    static final Path MANIFEST = Path.of("db", "MANIFEST");
    static final Path FILE = Path.of("db", "segments", "7.tbf");

    private static SegmentMeta file(long size, long rows, long tombstones, long minTs, long maxTs, long minSeq,
                                    long maxSeq) {
        return new SegmentMeta(7, 1, size, rows, tombstones, minTs, maxTs, minSeq, maxSeq, false);
    }

    /** 100 rows (4 tombstones), timestamps 1000..2000, sequences 50..149, 8,192 bytes. */
    private static SegmentMeta theFile() {
        return file(8192, 100, 4, 1000, 2000, 50, 149);
    }

    private static SegmentMeta listed() {
        return new SegmentMeta(7, 1, 8192, 100, 4, 1000, 2000, 50, 149, true);
    }

    private static String what(SegmentMeta listed, SegmentMeta file) {
        CorruptionException e = ListedSegmentCheck.disagreement(MANIFEST, FILE, listed, file);
        if (e == null) {
            return null;
        }
        assertEquals(MANIFEST.toString(), e.file());
        assertEquals(0, e.offset());
        return e.what();
    }

    private static String expected(String differs) {
        return "lists segment 7 (" + FILE + ") with " + differs + ": the file is not the segment the MANIFEST lists";
    }

    @Test
    void theListedFileAgrees() {
        assertNull(what(listed(), theFile()));
    }

    @Test
    void aWiderListedSequenceRangeIsARunsAndAgrees() {
        assertNull(what(listed().withSequenceRange(10, 400), theFile()));
    }

    @Test
    void aListedTombstoneCountOfZeroIsTheFirstVersionsAndAgrees() {
        assertNull(what(listed().withTombstones(0), theFile()));
    }

    @Test
    void eachFieldThatDiffers() {
        assertEquals(expected("8192 bytes, but the file has 8256"),
                what(listed(), file(8256, 100, 4, 1000, 2000, 50, 149)));
        assertEquals(expected("100 rows, but the file holds 99"),
                what(listed(), file(8192, 99, 4, 1000, 2000, 50, 149)));
        assertEquals(expected("4 tombstones, but the file holds 5"),
                what(listed(), file(8192, 100, 5, 1000, 2000, 50, 149)));
        assertEquals(expected("timestamps 1000..2000, but the file's are 999..2000"),
                what(listed(), file(8192, 100, 4, 999, 2000, 50, 149)));
        assertEquals(expected("timestamps 1000..2000, but the file's are 1000..2001"),
                what(listed(), file(8192, 100, 4, 1000, 2001, 50, 149)));
        assertEquals(expected("sequences 50..149, but the file's are 49..149"),
                what(listed(), file(8192, 100, 4, 1000, 2000, 49, 149)));
        assertEquals(expected("sequences 50..149, but the file's are 50..150"),
                what(listed(), file(8192, 100, 4, 1000, 2000, 50, 150)));
    }
}
