package dev.tala.tests.corruption;

import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An undamaged, closed database directory that damage cases copy, with the model of what it
 * holds: the history of acknowledged writes, and which writes each live segment file holds
 * (what is lost if recovery moves that segment to {@code lost/}).
 *
 * @param segmentWrites live segment file name to the indices of the writes it holds
 */
record BaseDatabase(String name, Path dir, History history, Map<String, Set<Integer>> segmentWrites) {
    /**
     * How damaged copies are opened: the default recovery mode, with background compaction off so
     * that what a case does never depends on thread timing.
     */
    static final Options OPEN_OPTIONS = Options.builder().backgroundCompaction(false).build();

    DatabaseLayout layout() {
        return new DatabaseLayout(dir);
    }

    List<Path> liveSegments() {
        return list(layout().segmentDir());
    }

    /** WAL files, oldest first. */
    List<Path> walFiles() {
        return list(layout().walDir());
    }

    static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
