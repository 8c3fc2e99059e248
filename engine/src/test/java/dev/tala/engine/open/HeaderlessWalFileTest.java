package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.RecoveryReport;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import dev.tala.wal.WalFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The newest WAL file without an intact header and without an intact record: what a crash while
 * creating it leaves (a torn header, zeros after it) is deleted; a file holding more than zeros
 * past its header is not what a crash leaves, and was deleted all the same, its bytes gone. It
 * is moved to lost/ instead.
 */
class HeaderlessWalFileTest {
    static final int DIM = 8;

    @TempDir
    Path dir;

    private static Options options() {
        return Options.builder().dimension(DIM).memtableBytes(64L << 20).durability(Durability.none()).build();
    }

    /** Two opens with one put each; returns the newest WAL file, which holds the second put. */
    private Path newestAfterTwoOpens(List<Intent> written) throws IOException {
        written.addAll(RecoveryProtocolTest.oneRecordPerOpen(dir, options(), new RandomIntents(5, DIM), 2));
        List<Path> wals = RecoveryProtocolTest.walFiles(dir);
        assertEquals(2, wals.size(), wals.toString());
        return wals.getLast();
    }

    @Test
    void aNewestFileHoldingOtherBytesIsMovedToLostNotDeleted() throws IOException {
        List<Intent> written = new ArrayList<>();
        Path newest = newestAfterTwoOpens(written);
        byte[] foreign = new byte[5000];
        Arrays.fill(foreign, (byte) 0x5A);
        Files.write(newest, foreign);

        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(newest.toString())
                && p.what().endsWith("the next open moves the file to lost/")), verify.problems().toString());

        Path kept = new DatabaseLayout(dir).lostDir().resolve(newest.getFileName());
        try (TalaDB db = TalaDB.open(dir, options())) {
            RecoveryReport.Action action = onlyActionOn(db.recoveryReport(), newest);
            assertEquals(RecoveryReport.Action.Kind.MOVED_TO_LOST, action.kind());
            assertTrue(action.reason().contains("more than zeros") && action.reason().endsWith(kept.toString()),
                    action.reason());
            assertEquals(Optional.of(written.getFirst()), db.get(written.getFirst().id()));
        }
        assertArrayEquals(foreign, Files.readAllBytes(kept), "lost/ holds the file as it was");
    }

    @Test
    void aTornHeaderWithZerosAfterItIsDeletedAsACrashLeavesIt() throws IOException {
        List<Intent> written = new ArrayList<>();
        Path newest = newestAfterTwoOpens(written);
        // A reused file whose header was being written: zeros past it, a part of the header.
        byte[] torn = new byte[64 * 1024];
        System.arraycopy(WalFormat.MAGIC, 0, torn, 0, 3);
        Files.write(newest, torn);

        try (TalaDB db = TalaDB.open(dir, options())) {
            RecoveryReport.Action action = onlyActionOn(db.recoveryReport(), newest);
            assertEquals(RecoveryReport.Action.Kind.TRUNCATED_WAL_TAIL, action.kind());
            assertTrue(action.reason().startsWith("deleted: its header is not intact"), action.reason());
            assertEquals(Optional.of(written.getFirst()), db.get(written.getFirst().id()));
        }
        assertFalse(Files.exists(new DatabaseLayout(dir).lostDir().resolve(newest.getFileName())));
    }

    private static RecoveryReport.Action onlyActionOn(RecoveryReport report, Path file) {
        List<RecoveryReport.Action> actions = report.actions().stream()
                .filter(a -> a.file().equals(file.toString())).toList();
        assertEquals(1, actions.size(), report.summary());
        return actions.getFirst();
    }
}
