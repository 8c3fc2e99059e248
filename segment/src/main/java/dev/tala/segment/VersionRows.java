package dev.tala.segment;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import java.lang.foreign.MemorySegment;
import java.util.List;

/** Decoded versions as writer input: what a flush of a memtable writes. */
final class VersionRows implements SegmentRows {
    private final List<IntentVersion> versions;

    VersionRows(List<IntentVersion> versions) {
        this.versions = versions;
    }

    private IntentVersion version(int row) {
        IntentVersion v = versions.get(row);
        if (v == null) {
            throw new IllegalArgumentException("version " + row + " is null");
        }
        return v;
    }

    @Override
    public int size() {
        return versions.size();
    }

    @Override
    public IntentId id(int row) {
        return version(row).id();
    }

    @Override
    public long sequence(int row) {
        return version(row).sequence();
    }

    @Override
    public boolean isTombstone(int row) {
        return version(row).isTombstone();
    }

    @Override
    public long timestampNs(int row) {
        return version(row).intent().timestampNs();
    }

    @Override
    public long contextHash(int row) {
        return version(row).intent().contextHash();
    }

    @Override
    public float confidence(int row) {
        return version(row).intent().confidence();
    }

    @Override
    public Status status(int row) {
        return version(row).intent().status();
    }

    @Override
    public Outcome outcome(int row) {
        return version(row).intent().outcome();
    }

    @Override
    public String command(int row) {
        return version(row).intent().command();
    }

    @Override
    public List<Edge> edges(int row) {
        return version(row).intent().edges();
    }

    @Override
    public int dimension(int row) {
        return version(row).intent().dimension();
    }

    @Override
    public void encodeEmbedding(int row, EmbeddingType type, MemorySegment dst, long at) {
        var intent = version(row).intent();
        EmbeddingCodec.encode(type, intent.embeddingView(), intent.dimension(), dst, at);
    }
}
