package dev.tala.engine.flush;

import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.FileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentSummary;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a frozen memtable's newest versions as a level-0 segment: complete (is_partial cleared,
 * forced, inside SegmentWriter) and its directory synced. Listing it in the MANIFEST is the
 * caller's step, so the same file serves the background flush and the flushes of a WAL replay.
 */
final class Level0Writer {
    private static final Logger LOG = LoggerFactory.getLogger(Level0Writer.class);

    private final FileLayer fs;
    private final DatabaseLayout layout;
    private final int dimension;
    private final EmbeddingType dtype;
    private final SegmentWriter writer;

    Level0Writer(FileLayer fs, DatabaseLayout layout, int dimension, EmbeddingType dtype) {
        this.fs = fs;
        this.layout = layout;
        this.dimension = dimension;
        this.dtype = dtype;
        this.writer = new SegmentWriter(fs);
    }

    /**
     * Writes segment {@code id}; on failure (the directory sync included) the file, which no
     * MANIFEST edit lists yet, is removed before the error is thrown.
     */
    SegmentMeta write(long id, List<IntentVersion> rows) throws IOException {
        Path path = layout.segmentFile(id);
        SegmentSummary summary;
        try {
            summary = writer.write(path, SegmentWriteOptions.of(id, System.currentTimeMillis() * 1_000_000L,
                    dimension, dtype), rows);
            fs.syncDirectory(layout.segmentDir());
        } catch (IOException | RuntimeException e) {
            deleteQuietly(path);
            throw e;
        }
        return SegmentMeta.of(id, 0, summary, false);
    }

    void deleteQuietly(Path path) {
        try {
            fs.delete(path);
        } catch (IOException e) {
            LOG.warn("could not remove the unlisted segment {} ({}); the next open will", path, LoggedErrors.describe(e),
                    LoggedErrors.traceOf(e));
        }
    }
}
