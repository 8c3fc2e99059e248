package dev.tala.engine.docformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FORMAT.md's MANIFEST reader rules, on a real database whose MANIFEST is re-encoded by hand
 * (from the doc's grammar) with one field changed.
 */
class ManifestReaderClaimsTest {
    @TempDir
    Path dir;
    private final IntentId id = IntentId.of(0x0190_0000_0000_7000L, 1);

    private static Options options() {
        return Options.builder().dimension(4).embeddingType(EmbeddingType.F32).durability(Durability.sync())
                .backgroundCompaction(false).build();
    }

    @BeforeEach
    void databaseWithOneFlushedSegment() {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(Intent.builder().id(id).timestampNs(5).contextHash(1).confidence(0.5f).status(Status.PENDING)
                    .command("x").embedding(new float[] {1, 2, 3, 4}).build());
            db.flush();
        }
    }

    private static byte[] encode(List<DocManifest.Field> edit) {
        ByteArrayOutputStream p = new ByteArrayOutputStream();
        for (DocManifest.Field f : edit) {
            p.write(f.tag());
            p.write(f.value().length & 0xFF);
            p.write(f.value().length >>> 8);
            p.writeBytes(f.value());
        }
        byte[] payload = p.toByteArray();
        ByteBuffer b = ByteBuffer.allocate(12 + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(payload.length).putInt(DocManifest.crc32c(payload, 0, payload.length));
        b.putInt(DocManifest.crc32c(b.array(), 0, 8)).put(payload);
        return b.array();
    }

    /** Rewrites MANIFEST with every field passed through {@code change}, and the reserved u16 given. */
    private void rewrite(UnaryOperator<DocManifest.Field> change, short reserved, DocManifest.Field extra)
            throws Exception {
        DocManifest m = DocManifest.read(dir.resolve("MANIFEST"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).put("TMAN".getBytes())
                .putShort((short) 1).putShort(reserved).array());
        for (int i = 0; i < m.edits().size(); i++) {
            List<DocManifest.Field> edit = new ArrayList<>(m.edits().get(i).stream().map(change).toList());
            if (extra != null && i == m.edits().size() - 1) {
                edit.add(extra);
            }
            out.writeBytes(encode(edit));
        }
        Files.write(dir.resolve("MANIFEST"), out.toByteArray());
    }

    /** Rewrites MANIFEST with the value of every add_segment (tag 4) passed through {@code change}. */
    private void rewriteSegmentEntries(UnaryOperator<byte[]> change) throws Exception {
        rewrite(f -> f.tag() == 4 ? new DocManifest.Field(4, change.apply(f.value())) : f, (short) 0, null);
    }

    /** An add_segment value cut to the first version's 58 bytes, without a tombstone count. */
    private static byte[] firstVersion(byte[] entry) {
        return java.util.Arrays.copyOf(entry, 58);
    }

    private static DocManifest.Field le64(int tag, long value) {
        return new DocManifest.Field(tag, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    }

    @Test
    void aReEncodedManifestOpens() throws Exception {
        rewrite(f -> f, (short) 0, null);
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.get(id).isPresent());
        }
    }

    @Test
    void unknownTagsAreSkipped() throws Exception {
        rewrite(f -> f, (short) 0, new DocManifest.Field(200, new byte[] {1, 2, 3, 4, 5}));
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.get(id).isPresent());
        }
    }

    @Test
    void aLongerAddSegmentIsReadUpTo66BytesAndCompactedAsNonZero() throws Exception {
        rewriteSegmentEntries(entry -> {
            byte[] longer = java.util.Arrays.copyOf(entry, 74);
            longer[57] = 2;
            longer[66] = 9;
            longer[73] = -1;
            return longer;
        });
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.get(id).isPresent());
            List<SegmentMeta> live = db.liveSegments();
            assertEquals(1, live.size());
            assertTrue(live.getFirst().compacted(), "compacted byte 2 reads as set");
            assertEquals(0, live.getFirst().tombstones(), "the bytes past 66 are not read");
        }
    }

    @Test
    void aFirstVersionAddSegmentOf58BytesReadsAsHavingNoTombstones() throws Exception {
        rewriteSegmentEntries(ManifestReaderClaimsTest::firstVersion);
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertTrue(db.get(id).isPresent());
            assertEquals(0, db.liveSegments().getFirst().tombstones());
        }
    }

    /**
     * A database the first version wrote: its MANIFEST's 58-byte entries carry no tombstone
     * count, but each listed segment's footer does, and the open reads every footer anyway. A
     * mass delete done before the upgrade must count for the tiered policy's tombstone check,
     * or the deleted rows stay on disk until a merge happens to rewrite their tombstones (never,
     * in a database that stopped growing; and a move copies the 0 into the next MANIFEST).
     */
    @Test
    void aFirstVersionEntryCountsTheTombstonesItsSegmentHolds() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.compact();
            db.delete(id);
            db.flush();
            assertEquals(List.of(1L, 0L), db.liveSegments().stream().map(SegmentMeta::tombstones).toList());
        }
        rewriteSegmentEntries(ManifestReaderClaimsTest::firstVersion);
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertEquals(List.of(1L, 0L), db.liveSegments().stream().map(SegmentMeta::tombstones).toList(),
                    "the counts in the segments' footers");
            var ran = db.compactPending(p -> { });
            assertEquals(1, ran.size(), "the tombstone check merges everything: " + ran);
            assertEquals(1, ran.getFirst().tombstonesDropped());
            assertTrue(db.liveSegments().isEmpty(), db.liveSegments().toString());
            assertTrue(db.get(id).isEmpty());
        }
    }

    @Test
    void moreTombstonesThanRowsIsMalformed() throws Exception {
        rewriteSegmentEntries(entry -> {
            byte[] v = entry.clone();
            ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).putLong(58, 2);
            return v;
        });
        RuntimeException e = assertThrows(RuntimeException.class, () -> TalaDB.open(dir, options()).close());
        assertTrue(String.valueOf(e.getMessage()).contains("tombstones 2"), e.getMessage());
    }

    @Test
    void aNonZeroReservedFieldIsRefused() throws Exception {
        rewrite(f -> f, (short) 1, null);
        assertThrows(RuntimeException.class, () -> TalaDB.open(dir, options()).close());
    }

    @Test
    void aCounterThatIsNot8BytesIsMalformed() throws Exception {
        rewrite(f -> f.tag() == 3 ? new DocManifest.Field(3, new byte[] {0, 0, 0, 0, 0, 0, 0}) : f, (short) 0, null);
        assertThrows(RuntimeException.class, () -> TalaDB.open(dir, options()).close());
    }

    @Test
    void aCounterAtOrAbove2To63IsMalformed() throws Exception {
        rewrite(f -> f.tag() == 2 ? le64(2, Long.MIN_VALUE) : f, (short) 0, null);
        assertThrows(RuntimeException.class, () -> TalaDB.open(dir, options()).close());
    }
}
