package dev.tala.compaction;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Writing input segments and reading outputs back, for the compaction tests. */
final class SegmentFiles {
    static final FileLayer LOCAL = LocalFileLayer.INSTANCE;

    private SegmentFiles() {
    }

    static Path path(Path dir, long segmentId) {
        return dir.resolve(String.format("%020d.tbf", segmentId));
    }

    /** Writes a flush-like segment (not compacted, reverse edges on) and opens it. */
    static SegmentReader writeInput(Path dir, long segmentId, int dimension, EmbeddingType type,
            List<IntentVersion> versions) throws IOException {
        Path path = path(dir, segmentId);
        new SegmentWriter(LOCAL).write(path, SegmentWriteOptions.of(segmentId, 0, dimension, type).withSync(false),
                versions);
        return SegmentReader.open(LOCAL, path);
    }

    /** Every version in the file, in row order. */
    static List<IntentVersion> readAll(SegmentReader reader) {
        List<IntentVersion> out = new ArrayList<>(reader.rowCount());
        for (int row = 0; row < reader.rowCount(); row++) {
            out.add(reader.version(row));
        }
        return out;
    }

    static List<SegmentReader> open(List<Path> paths) throws IOException {
        List<SegmentReader> out = new ArrayList<>();
        for (Path p : paths) {
            out.add(SegmentReader.open(LOCAL, p));
        }
        return out;
    }

    static void closeAll(List<SegmentReader> readers) {
        for (SegmentReader r : readers) {
            r.close();
        }
    }

    static List<Path> listFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path newDirectory(String prefix) {
        try {
            return Files.createTempDirectory(prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path root) {
        try {
            FileTrees.delete(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
