package dev.tala.segment;

/** One row of an open segment, named by the reader that holds it and its row number. */
public record StoredRow(SegmentReader reader, int row) {
    public StoredRow {
        if (reader == null) {
            throw new IllegalArgumentException("reader is null");
        }
    }
}
