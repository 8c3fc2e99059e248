package dev.tala.tests.corruption;

import dev.tala.core.io.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Copies and deletes database directories: every case damages its own fresh copy. */
final class DirectoryCopy {
    private DirectoryCopy() {
    }

    static void copy(Path from, Path to) {
        try {
            FileTrees.copy(from, to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path root) {
        try {
            FileTrees.delete(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
