package dev.tala.bench.compare;

import dev.tala.core.model.Intent;
import dev.tala.wal.WalOp;
import dev.tala.wal.WriteAheadLog;
import java.util.List;

/** Fills a log's current file with records, for benchmarks that need a long file to reuse. */
public final class WalFill {
    /** Records handed to the file at a time, so that the log's buffer stays small. */
    private static final int CHUNK_RECORDS = 16_384;

    private WalFill() {
    }

    /** Logs {@code records} puts of {@code intents}, taken in turn, syncing after every chunk. */
    public static void fill(WriteAheadLog wal, List<Intent> intents, int records) {
        for (int i = 0; i < records; i++) {
            wal.append(List.of(new WalOp.Put(intents.get(i % intents.size()))));
            if (i % CHUNK_RECORDS == CHUNK_RECORDS - 1) {
                wal.sync();
            }
        }
    }
}
