package dev.tala.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import dev.tala.core.testing.RandomIntents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Shared helpers for the WAL tests: random ops, and replaying a directory into a list. */
final class WalTestSupport {
    static final int DIM = 8;

    private WalTestSupport() {
    }

    /** A random op: mostly puts, some deletes and outcome updates. */
    static WalOp randomOp(RandomIntents gen) {
        return switch (gen.random().nextInt(6)) {
            case 0 -> new WalOp.Delete(gen.knownId());
            case 1 -> new WalOp.AttachOutcome(gen.knownId(), Status.values()[gen.random().nextInt(4)],
                    gen.random().nextBoolean() ? null : new Outcome(gen.random().nextInt(1_000_000), gen.random().nextInt()));
            default -> new WalOp.Put(gen.next());
        };
    }

    /** A record of one op, or a batch of several. */
    static List<WalOp> randomOps(RandomIntents gen) {
        int n = gen.random().nextInt(5) == 0 ? 2 + gen.random().nextInt(6) : 1;
        List<WalOp> ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ops.add(randomOp(gen));
        }
        return ops;
    }

    /** A WAL directory under {@code root} (the caller's to delete), made durable through a new fault-injecting layer. */
    record FaultyWalDir(Path walDir, FaultInjectingFileLayer fs) {
        static FaultyWalDir create(Path root) throws IOException {
            Path walDir = root.resolve("db").resolve("wal");
            Files.createDirectories(walDir.getParent());
            FaultInjectingFileLayer fs = new FaultInjectingFileLayer(root.resolve("stash"));
            fs.createDirectories(walDir);
            fs.syncDirectory(walDir.getParent());
            return new FaultyWalDir(walDir, fs);
        }
    }

    static List<WalRecord> replayAll(FileLayer fs, Path walDir, WalRecoveryMode mode) throws IOException {
        List<WalRecord> out = new ArrayList<>();
        WalReplayer.replay(fs, WalReplayer.walFiles(fs, walDir, 0), 0, mode, out::add);
        return out;
    }

    static void assertSameRecords(List<WalRecord> expected, List<WalRecord> actual) {
        assertEquals(expected.size(), actual.size(), "record count");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "record " + i);
        }
    }
}
