package dev.tala.engine.read;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.SegmentReader;

/** The rows of a segment in id order; a segment holds one version per id. */
final class SegmentCursor implements VersionCursor {
    private final SegmentReader reader;
    private int row;

    SegmentCursor(SegmentReader reader) {
        this.reader = reader;
    }

    @Override
    public boolean valid() {
        return row < reader.rowCount();
    }

    @Override
    public IntentId id() {
        return reader.id(row);
    }

    @Override
    public boolean isTombstone() {
        return reader.isTombstone(row);
    }

    @Override
    public IntentVersion version() {
        return reader.version(row);
    }

    @Override
    public void advance() {
        row++;
    }
}
