package dev.tala.core.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Whole directory trees on the real file system, for tools, benchmarks and tests that clean
 * up after themselves (work directories, copies). Database files go through a {@link FileLayer}.
 */
public final class FileTrees {
    private FileTrees() {
    }

    /** Deletes {@code root} and everything under it; nothing happens if it does not exist. */
    public static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
