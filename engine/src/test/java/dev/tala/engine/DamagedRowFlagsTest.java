package dev.tala.engine;

import static dev.tala.segment.format.TbfFormat.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.query.SearchFilter;
import dev.tala.segment.SegmentReader;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment whose row_flags column says one put row is a tombstone (its checksum and the
 * footer's recomputed: a collision or a hostile file), while the footer still counts P puts.
 * The open accepts it (it does not read every flag), verify refuses it, and the queries fail
 * with a CorruptionException naming file and offset. A search threw IndexOutOfBoundsException
 * and a scan returned a null intent.
 */
class DamagedRowFlagsTest {
    static final int DIM = 8;
    @TempDir
    Path dir;
    Path segment;
    float[] query;

    Options options() {
        return Options.builder().dimension(DIM).memtableBytes(1 << 20).durability(Durability.none())
                .backgroundCompaction(false).build();
    }

    @BeforeEach
    void writeAndDamage() throws IOException {
        RandomIntents gen = new RandomIntents(3, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < 20; i++) {
                Intent x = gen.next();
                db.put(x);
                query = x.embedding();
            }
            db.flush();
        }
        try (Stream<Path> files = Files.list(dir.resolve("segments"))) {
            segment = files.filter(p -> p.toString().endsWith(".tbf")).findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(segment);
        MemorySegment s = MemorySegment.ofArray(b);
        long footer = s.get(U64, H_FOOTER_OFFSET);
        int footerLength = b.length - TRAILER_BYTES - (int) footer;
        int regions = s.get(U32, footer + F_REGION_COUNT);
        for (int i = 0; i < regions; i++) {
            long entry = footer + F_ENTRIES + (long) i * ENTRY_BYTES;
            if (s.get(U16, entry + E_KIND) == KIND_ROW_FLAGS) {
                long at = s.get(U64, entry + E_OFFSET);
                long len = s.get(U64, entry + E_STORED_LENGTH);
                // The last row (a put) now reads as a tombstone; its other fields are unchanged.
                b[(int) (at + len - 1)] = (byte) ROW_FLAG_TOMBSTONE;
                s.set(U32, entry + E_CRC, Crc32c.of(b, (int) at, (int) len));
            }
        }
        s.set(U32, footer + footerLength - FOOTER_CRC_BYTES, Crc32c.of(b, (int) footer, footerLength - FOOTER_CRC_BYTES));
        Files.write(segment, b);
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, segment)) {
            assertEquals(0, r.footer().tombstoneCount(), "no real tombstones in this segment");
            // verify() does see the damage.
            assertThrows(CorruptionException.class, r::verify);
        }
    }

    @Test
    void searchOverTheSegmentFailsWithCorruptionException() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> db.search(query, 5, SearchFilter.ALL));
            assertTrue(e.getMessage().startsWith(segment.toString()), e.getMessage());
        }
    }

    @Test
    void scanOverTheSegmentFailsWithCorruptionException() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> db.scan(1, Long.MAX_VALUE, 100));
            assertTrue(e.getMessage().contains("is flagged a tombstone but has timestamp"), e.getMessage());
        }
    }
}
