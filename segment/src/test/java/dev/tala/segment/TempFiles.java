package dev.tala.segment;

import dev.tala.core.io.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Temporary directories for jqwik properties, which have no @TempDir. */
final class TempFiles {
    private TempFiles() {
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
