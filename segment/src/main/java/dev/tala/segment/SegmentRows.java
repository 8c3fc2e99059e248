package dev.tala.segment;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The rows a {@link SegmentWriter} writes, sorted by id and read by index, one column at a time.
 * Either decoded versions ({@link #of}) or rows of existing segments copied as they are stored
 * ({@link #copiedFrom}), which is how compaction moves embeddings without decoding them.
 * The value methods are called only for rows that are not tombstones.
 */
public interface SegmentRows {
    int size();

    IntentId id(int row);

    long sequence(int row);

    boolean isTombstone(int row);

    long timestampNs(int row);

    long contextHash(int row);

    float confidence(int row);

    Status status(int row);

    /** The outcome, or null if the row has none. */
    Outcome outcome(int row);

    String command(int row);

    List<Edge> edges(int row);

    /** How many values the row's embedding has. */
    int dimension(int row);

    /**
     * Writes the row's embedding encoded as {@code type} at {@code dst[at]}: exactly
     * {@code type.vectorBytes(dimension)} bytes, nothing after them.
     */
    void encodeEmbedding(int row, EmbeddingType type, MemorySegment dst, long at);

    /** Decoded versions; the writer rejects a null element. */
    static SegmentRows of(List<IntentVersion> versions) {
        return new VersionRows(versions);
    }

    /** Rows of open segments, in the order given; the readers must stay open while they are written. */
    static SegmentRows copiedFrom(List<StoredRow> rows) {
        return new StoredRows(rows);
    }
}
