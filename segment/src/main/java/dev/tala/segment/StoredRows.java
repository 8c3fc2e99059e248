package dev.tala.segment;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Rows of open segments as writer input: every value is read from the mapped input where the
 * writer needs it, and an embedding whose stored type is the output's is copied byte for byte
 * (its region's CRC32C was checked when the reader first used it). Only a change of type
 * decodes it to floats. Nothing is decoded into an {@code Intent}, so a compaction holds no
 * more than a reference per buffered row.
 */
final class StoredRows implements SegmentRows {
    private final List<StoredRow> rows;
    private float[] scratch;

    StoredRows(List<StoredRow> rows) {
        this.rows = rows;
    }

    @Override
    public int size() {
        return rows.size();
    }

    @Override
    public IntentId id(int row) {
        StoredRow r = rows.get(row);
        return r.reader().id(r.row());
    }

    @Override
    public long sequence(int row) {
        StoredRow r = rows.get(row);
        return r.reader().sequence(r.row());
    }

    @Override
    public boolean isTombstone(int row) {
        StoredRow r = rows.get(row);
        return r.reader().isTombstone(r.row());
    }

    @Override
    public long timestampNs(int row) {
        StoredRow r = rows.get(row);
        return r.reader().timestamp(r.row());
    }

    @Override
    public long contextHash(int row) {
        StoredRow r = rows.get(row);
        return r.reader().contextHash(r.row());
    }

    @Override
    public float confidence(int row) {
        StoredRow r = rows.get(row);
        return r.reader().confidence(r.row());
    }

    @Override
    public Status status(int row) {
        StoredRow r = rows.get(row);
        return r.reader().status(r.row());
    }

    @Override
    public Outcome outcome(int row) {
        StoredRow r = rows.get(row);
        return r.reader().outcome(r.row());
    }

    @Override
    public String command(int row) {
        StoredRow r = rows.get(row);
        return r.reader().command(r.row());
    }

    @Override
    public List<Edge> edges(int row) {
        StoredRow r = rows.get(row);
        return r.reader().edgesFrom(r.row());
    }

    @Override
    public int dimension(int row) {
        return rows.get(row).reader().dimension();
    }

    @Override
    public void encodeEmbedding(int row, EmbeddingType type, MemorySegment dst, long at) {
        StoredRow r = rows.get(row);
        SegmentReader reader = r.reader();
        MemorySegment stored = reader.embedding(r.row());
        int dim = reader.dimension();
        if (reader.dtype() == type) {
            MemorySegment.copy(stored, 0, dst, at, type.vectorBytes(dim));
            return;
        }
        if (scratch == null || scratch.length != dim) {
            scratch = new float[dim];
        }
        EmbeddingCodec.decode(reader.dtype(), stored, 0, dim, scratch);
        EmbeddingCodec.encode(type, scratch, dst, at);
    }
}
