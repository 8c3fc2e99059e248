package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.RecoveryReport.Action.Kind;
import dev.tala.wal.Durability;
import dev.tala.wal.WalRecoveryMode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged last record of a WAL file that is not the newest is corruption, not a torn tail:
 * the next file's records were written after it (docs/FORMAT.md: a torn tail is damage in the
 * newest file). The default open refuses it; skip-corrupted must skip it as it skips any damaged
 * record: report it as a skipped range of that file, and keep the file as it was in lost/ before
 * anything changes it. It used to be taken for a torn write: cut off with no copy anywhere (the
 * damaged record's bytes were gone), reported as "a write torn by the crash", and the hole it left
 * was reported against the next, intact file, which was copied to lost/ instead.
 */
class SkipCorruptedOlderFileTailTest {
    static final int DIM = 8;

    @TempDir
    Path dir;

    private static Options options(WalRecoveryMode mode) {
        return Options.builder().dimension(DIM).memtableBytes(64L << 20).durability(Durability.none())
                .recoveryMode(mode).build();
    }

    /** The offsets of the records of a WAL file that was not reused (no zeros after its records). */
    private static List<Integer> recordOffsets(byte[] wal) {
        ByteBuffer b = ByteBuffer.wrap(wal).order(ByteOrder.LITTLE_ENDIAN);
        List<Integer> out = new ArrayList<>();
        for (int at = 16; at < wal.length; at += 21 + b.getInt(at)) {
            out.add(at);
        }
        return out;
    }

    @Test
    void aDamagedLastRecordOfAnOlderFileIsSkippedAndKeptNotCutAsATornWrite() throws IOException {
        RandomIntents gen = new RandomIntents(1, DIM);
        List<Intent> written = new ArrayList<>();
        for (int n : new int[] {5, 3}) { // two opens: two WAL files, of sequences 1..5 and 6..8
            try (TalaDB db = TalaDB.open(dir, options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
                for (int i = 0; i < n; i++) {
                    Intent x = gen.next();
                    db.put(x);
                    written.add(x);
                }
            }
        }
        List<Path> wal = RecoveryProtocolTest.walFiles(dir);
        assertEquals(2, wal.size(), wal.toString());
        Path older = wal.getFirst();
        byte[] damaged = Files.readAllBytes(older);
        int last = recordOffsets(damaged).getLast();
        damaged[last + 30] ^= 0x10; // in the payload of sequence 5
        Files.write(older, damaged);

        try (TalaDB db = TalaDB.openReadOnly(dir, options(WalRecoveryMode.SKIP_CORRUPTED))) {
            RecoveryReport report = db.recoveryReport();
            assertEquals(List.of(Kind.SKIPPED_WAL_RECORD), kinds(report, older), report.summary());
            assertEquals(List.of(), kinds(report, wal.getLast()), report.summary());
        }
        assertArrayEquals(damaged, Files.readAllBytes(older), "a read-only open changes nothing");

        try (TalaDB db = TalaDB.open(dir, options(WalRecoveryMode.SKIP_CORRUPTED))) {
            RecoveryReport report = db.recoveryReport();
            assertEquals(List.of(Kind.SKIPPED_WAL_RECORD), kinds(report, older), report.summary());
            String why = report.actions().stream().filter(a -> a.file().equals(older.toString())).findFirst()
                    .orElseThrow().reason();
            assertTrue(why.contains("offset " + last), why);
            assertEquals(List.of(), kinds(report, wal.getLast()),
                    "the next file is intact; the hole before it is the skipped record: " + report.summary());
            Path copy = new DatabaseLayout(dir).lostDir().resolve(older.getFileName());
            assertArrayEquals(damaged, Files.readAllBytes(copy), "lost/ keeps the damaged file as it was");
            for (int i = 0; i < written.size(); i++) {
                assertEquals(i != 4, db.get(written.get(i).id()).isPresent(), "intent " + i);
            }
        }
        try (TalaDB db = TalaDB.open(dir, options(WalRecoveryMode.TOLERATE_CORRUPTED_TAIL))) {
            assertTrue(db.recoveryReport().isClean(), db.recoveryReport().summary());
            for (int i = 0; i < written.size(); i++) {
                assertEquals(i != 4, db.get(written.get(i).id()).isPresent(), "intent " + i);
            }
        }
        assertFalse(Files.exists(older), "retired once the skip-corrupted open's flush holds its records");
    }

    private static List<Kind> kinds(RecoveryReport report, Path file) {
        return report.actions().stream().filter(a -> a.file().equals(file.toString())).map(RecoveryReport.Action::kind)
                .toList();
    }
}
