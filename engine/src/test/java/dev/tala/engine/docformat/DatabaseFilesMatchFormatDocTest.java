package dev.tala.engine.docformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OPTIONS, LOCK, MANIFEST and the engine's WAL records, decoded from FORMAT.md alone. */
class DatabaseFilesMatchFormatDocTest {
    @TempDir
    Path dir;

    private static Options options() {
        return Options.builder().dimension(4).embeddingType(EmbeddingType.F32).durability(Durability.sync())
                .backgroundCompaction(false).build();
    }

    private static Intent intent(long low, long ts) {
        return Intent.builder().id(IntentId.of(0x0190_0000_0000_7000L, low)).timestampNs(ts).contextHash(low)
                .confidence(0.5f).status(Status.PENDING).command("c" + low)
                .embedding(new float[] {1, 2, 3, 4}).build();
    }

    @Test
    void optionsIsTheDocumentedText() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(1, 5));
        }
        String text = Files.readString(dir.resolve("OPTIONS"), StandardCharsets.UTF_8);
        assertEquals("# TalaDB database options, fixed when the database was created\n"
                + "format=1\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=sync\n", text);
    }

    @Test
    void lockHoldsThePidAndANewline() throws Exception {
        String pid = ProcessHandle.current().pid() + "\n";
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertEquals(pid, Files.readString(dir.resolve("LOCK")));
        }
        assertEquals(pid, Files.readString(dir.resolve("LOCK")), "the file stays after close");
    }

    @Test
    void aNewDatabasesManifestIsOneSnapshotEdit() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            DocManifest m = DocManifest.read(dir.resolve("MANIFEST"));
            assertEquals(1, m.edits().size(), "edits");
            List<DocManifest.Field> edit = m.edits().getFirst();
            assertEquals(0, DocManifest.only(edit, 1).u64(0), "log_number");
            assertEquals(1, DocManifest.only(edit, 2).u64(0), "next_file_number");
            assertEquals(0, DocManifest.only(edit, 3).u64(0), "last_sequence");
            assertEquals(3, edit.size(), DocManifest.describe(edit));
            for (DocManifest.Field f : edit) {
                assertEquals(8, f.value().length, "tag " + f.tag() + " length");
            }
        }
    }

    @Test
    void aFlushAppendsOneEditDescribingItsSegment() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            // Intent 3 is in a segment first: a flush leaves out a tombstone that hides nothing.
            db.put(intent(3, 1_700_000_000_000_000_333L));
            db.flush();
            db.put(intent(2, 1_700_000_000_000_000_222L));
            db.put(intent(1, 1_700_000_000_000_000_111L));
            db.delete(IntentId.of(0x0190_0000_0000_7000L, 3));
            db.flush();
            DocManifest m = DocManifest.read(dir.resolve("MANIFEST"));
            List<DocManifest.Field> edit = m.edits().getLast();
            DocManifest.Field add = DocManifest.only(edit, 4);
            assertEquals(66, add.value().length, "add_segment length");
            ByteBuffer v = ByteBuffer.wrap(add.value()).order(ByteOrder.LITTLE_ENDIAN);
            long id = v.getLong(0);
            Path segment = dir.resolve("segments").resolve(String.format("%020d.tbf", id));
            assertTrue(Files.exists(segment), segment + " named by add_segment's id");
            assertEquals(0, v.get(8), "level");
            assertEquals(Files.size(segment), v.getLong(9), "file_size");
            assertEquals(3, v.getLong(17), "rows");
            assertEquals(1_700_000_000_000_000_111L, v.getLong(25), "min_timestamp");
            assertEquals(1_700_000_000_000_000_222L, v.getLong(33), "max_timestamp");
            assertEquals(2, v.getLong(41), "min_sequence");
            assertEquals(4, v.getLong(49), "max_sequence");
            assertEquals(0, v.get(57), "compacted");
            assertEquals(1, v.getLong(58), "tombstones");
            assertEquals(4, DocManifest.only(edit, 3).u64(0), "last_sequence");
            assertTrue(DocManifest.only(edit, 1).u64(0) > 0, "log_number raised");
            assertTrue(DocManifest.only(edit, 2).u64(0) > id, "next_file_number above the new segment");

            byte[] tbf = Files.readAllBytes(segment);
            ByteBuffer h = ByteBuffer.wrap(tbf).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(id, h.getLong(8), "segment_id is the file name's number");
            assertEquals(0, h.getLong(16) % 1_000_000, "a flush writes created_at at millisecond precision");
            long footer = h.getLong(96);
            assertEquals(1, h.getInt((int) footer + 64) & 1, "the database writes a CSC block in every segment");
        }
    }

    @Test
    void anOutcomeUpdateIsLoggedAsAPut() throws Exception {
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(intent(1, 7));
            db.attachOutcome(IntentId.of(0x0190_0000_0000_7000L, 1), Status.SUCCESS, new Outcome(99, 1));
            Path wal;
            try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
                wal = files.filter(p -> p.toString().endsWith(".wal")).sorted().toList().getLast();
            }
            byte[] f = Files.readAllBytes(wal);
            ByteBuffer le = ByteBuffer.wrap(f).order(ByteOrder.LITTLE_ENDIAN);
            int at = 16;
            int records = 0;
            while (at + 21 <= f.length && le.getInt(at) != 0) {
                assertEquals(1, f[at + 4], "record " + records + " type");
                at += 21 + le.getInt(at);
                records++;
            }
            assertEquals(2, records);
        }
    }
}
