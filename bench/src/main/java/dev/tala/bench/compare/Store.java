package dev.tala.bench.compare;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import java.io.IOException;

/** One side of the comparison: the operations the benchmark times, done as each store's user would. */
interface Store extends AutoCloseable {
    String name();

    /** The settings that matter for the comparison, printed with the results. */
    String settings();

    void open(boolean sync) throws Exception;

    void put(Intent intent) throws Exception;

    boolean get(IntentId id) throws Exception;

    /** How many intents have from <= timestamp < to. */
    long scanCount(long fromNs, long toNs) throws Exception;

    /** The ids of the 10 intents most similar (cosine) to {@code query}. */
    IntentId[] top10(float[] query) throws Exception;

    void compactFull() throws Exception;

    long bytesOnDisk() throws IOException;

    /** Flushes, then waits until background compaction has nothing left to do. */
    void awaitQuiet() throws Exception;

    /** What this store wrote since it was opened, by its own counters. */
    WriteCounts writeCounts() throws Exception;

    @Override
    void close() throws Exception;
}
