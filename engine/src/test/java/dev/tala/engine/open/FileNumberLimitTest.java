package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestEdit;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File numbers past {@link DatabaseLayout#MAX_FILE_NUMBER} reaching an open by other paths than a
 * stray name (from a review): a MANIFEST numbered there is refused as damaged, naming it, where the
 * open threw an IllegalStateException (at the limit itself, every write after the first switch
 * did); a WAL file of ours named past the limit, which an earlier version could make, is refused
 * naming it instead of being passed over with its records.
 */
class FileNumberLimitTest {
    static final int DIM = 8;

    @TempDir
    Path tmp;

    private static Options options() {
        return Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.none()).build();
    }

    private static void fill(Path dir, long seed, int count) {
        RandomIntents gen = new RandomIntents(seed, DIM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            for (int i = 0; i < count; i++) {
                db.put(gen.next());
            }
            db.flush();
        }
    }

    /** Appends one edit raising next_file_number to {@code next}, as a damaged or hostile MANIFEST would hold. */
    private static void raiseNextFileNumber(Path dir, long next) throws IOException {
        Path file = new DatabaseLayout(dir).manifestFile();
        var state = ManifestReader.read(LocalFileLayer.INSTANCE, file).state();
        try (Manifest m = Manifest.append(LocalFileLayer.INSTANCE, file, state, Manifest.DEFAULT_REWRITE_BYTES)) {
            m.append(ManifestEdit.builder().nextFileNumber(next).build());
        }
    }

    @Test
    void aManifestNumberedAtOrPastTheLimitIsRefusedAsDamaged() throws IOException {
        for (long next : new long[] {DatabaseLayout.MAX_FILE_NUMBER + 1, DatabaseLayout.MAX_FILE_NUMBER,
                DatabaseLayout.MAX_FILE_NUMBER - DatabaseLayout.FILE_NUMBER_HEADROOM + 1}) {
            Path dir = tmp.resolve("db-" + next);
            fill(dir, 1, 20);
            raiseNextFileNumber(dir, next);
            CorruptionException e = assertThrows(CorruptionException.class, () -> TalaDB.open(dir, options()).close(),
                    Long.toString(next));
            assertEquals(new DatabaseLayout(dir).manifestFile().toString(), e.file());
            assertTrue(e.getMessage().contains("next_file_number or log_number " + next), e.getMessage());
        }
        // Below the headroom it opens and writes.
        Path dir = tmp.resolve("db-below");
        fill(dir, 1, 20);
        raiseNextFileNumber(dir, DatabaseLayout.MAX_FILE_NUMBER - DatabaseLayout.FILE_NUMBER_HEADROOM);
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(new RandomIntents(9, DIM).next());
            db.flush();
        }
    }

    @Test
    void aWalFileOfOursNamedPastTheLimitIsRefusedNotPassedOver() throws IOException {
        Path dir = tmp.resolve("db");
        fill(dir, 4, 5);
        Intent acked = new RandomIntents(5, DIM).next();
        try (TalaDB db = TalaDB.open(dir, options())) {
            db.put(acked); // stays in the WAL, no flush
        }
        DatabaseLayout layout = new DatabaseLayout(dir);
        List<Path> wal;
        try (var s = Files.list(layout.walDir())) {
            wal = s.filter(p -> DatabaseLayout.walNumber(p).isPresent()).toList();
        }
        assertEquals(1, wal.size(), wal.toString());
        long big = Long.MAX_VALUE;
        Path renamed = layout.walDir().resolve(String.format("%020d.wal", big));
        Files.move(wal.getFirst(), renamed);
        try (RandomAccessFile f = new RandomAccessFile(renamed.toFile(), "rw")) { // the header names its file
            f.seek(8);
            f.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(big).array());
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> TalaDB.open(dir, options()).close());
        assertEquals(renamed.toString(), e.file());
        assertTrue(e.getMessage().contains("move it out of"), e.getMessage());
        // Moved out, as the error says: the database opens without that file's records.
        Files.move(renamed, tmp.resolve(renamed.getFileName()));
        try (TalaDB db = TalaDB.open(dir, options())) {
            assertEquals(Optional.empty(), db.get(acked.id()));
            assertEquals(5, db.stats().intents());
        }
    }
}
