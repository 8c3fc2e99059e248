package dev.tala.engine.docformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A compaction's MANIFEST edit and output segment, decoded from FORMAT.md alone. */
class CompactionEditMatchesFormatDocTest {
    @TempDir
    Path dir;

    @Test
    void aCompactionAddsOutputsRemovesInputsAndMarksThemCompacted() throws Exception {
        Options options = Options.builder().dimension(4).embeddingType(EmbeddingType.F32)
                .durability(Durability.sync()).backgroundCompaction(false).compactionMoves(false).build();
        try (TalaDB db = TalaDB.open(dir, options)) {
            Set<Long> inputs = new HashSet<>();
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 3; i++) {
                    db.put(Intent.builder().id(IntentId.of(0x0190_0000_0000_7000L, i)).timestampNs(10 + round)
                            .contextHash(i).confidence(0.5f).status(Status.PENDING).command("c")
                            .embedding(new float[] {1, 2, 3, round}).build());
                }
                db.flush();
            }
            db.liveSegments().forEach(s -> inputs.add(s.id()));
            assertTrue(db.compact().isPresent(), "a compaction ran");
            List<DocManifest.Field> edit = DocManifest.read(dir.resolve("MANIFEST")).edits().getLast();
            Set<Long> removed = new HashSet<>();
            int added = 0;
            for (DocManifest.Field f : edit) {
                if (f.tag() == 5) {
                    assertEquals(8, f.value().length, "remove_segment length");
                    removed.add(f.u64(0));
                } else if (f.tag() == 4) {
                    added++;
                    ByteBuffer v = ByteBuffer.wrap(f.value()).order(ByteOrder.LITTLE_ENDIAN);
                    assertEquals(1, v.get(57), "compacted byte of a compaction output");
                    Path tbf = dir.resolve("segments").resolve(String.format("%020d.tbf", v.getLong(0)));
                    ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(tbf)).order(ByteOrder.LITTLE_ENDIAN);
                    assertEquals(4, h.getShort(46) & 4, "is_compacted header flag");
                    assertEquals(Files.size(tbf), v.getLong(9), "file_size");
                    assertTrue(v.get(8) >= 1, "output level");
                }
            }
            assertEquals(inputs, removed, "every input removed in the same edit " + DocManifest.describe(edit));
            assertTrue(added > 0, "outputs added in the same edit " + DocManifest.describe(edit));
            DocManifest.only(edit, 2);
        }
    }
}
