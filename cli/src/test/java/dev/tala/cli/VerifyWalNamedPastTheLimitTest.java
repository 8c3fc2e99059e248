package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.cli.InProcess.Run;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WAL file of ours named past the file-number limit (docs/RECOVERY.md, open step 5): every
 * open refuses the database, naming it, so that its acknowledged records are not passed over.
 * verify read the WAL files an open replays, which leave it out, and called the database clean.
 */
class VerifyWalNamedPastTheLimitTest {
    @TempDir
    Path work;

    @Test
    void verifyListsAWalFileNamedPastTheLimitThatEveryOpenRefuses() throws IOException {
        Path db = work.resolve("db");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "4").exit());
        try (TalaDB open = TalaDB.open(db, Options.builder().createIfMissing(false).build())) {
            open.put(Intent.builder().id(IntentId.parse("0198fc00-0000-7000-8000-000000000001")).timestampNs(1)
                    .command("acknowledged, only in the WAL").embedding(new float[] {1, 2, 3, 4}).build());
        }
        List<Path> wal;
        try (Stream<Path> files = Files.list(db.resolve("wal"))) {
            wal = files.filter(p -> p.toString().endsWith(".wal")).toList();
        }
        assertEquals(1, wal.size(), wal.toString());
        long big = Long.MAX_VALUE;
        Path renamed = wal.getFirst().resolveSibling(String.format("%020d.wal", big));
        Files.move(wal.getFirst(), renamed);
        try (RandomAccessFile f = new RandomAccessFile(renamed.toFile(), "rw")) { // the header names its file
            f.seek(8);
            f.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(big).array());
        }

        Run stats = tala("stats", "--db", db.toString());
        assertEquals(1, stats.exit(), "every open refuses it: " + stats.out());
        assertTrue(stats.err().contains(renamed.toString()), stats.err());

        Run verify = tala("verify", "--db", db.toString());
        assertEquals(1, verify.exit(), verify.out() + verify.err());
        assertTrue(verify.out().contains(renamed.toString()), verify.out());
        Run json = tala("verify", "--db", db.toString(), "--json");
        assertEquals(1, json.exit(), json.out());
        assertTrue(json.out().contains("\"clean\":false") && json.out().contains(renamed.toString()), json.out());
    }
}
