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

    /** Copies the tree at {@code from} to {@code to}, which must not exist yet. */
    public static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : walk.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
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
