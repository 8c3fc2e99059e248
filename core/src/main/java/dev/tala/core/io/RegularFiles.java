package dev.tala.core.io;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Refuses, by name, a path that is there but is not a regular file, before it is opened.
 * Opening a FIFO waits for its other end ({@code tala verify} hung on a FIFO named LOCK,
 * MANIFEST or like a segment), and mapping a directory fails with "No such device", which
 * names no file. None of the database's files is anything but a regular file.
 */
final class RegularFiles {
    private RegularFiles() {
    }

    /** Throws if {@code file} exists and is not a regular file (symbolic links are followed). */
    static void refuseOtherKinds(Path file) throws IOException {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (NoSuchFileException absent) {
            // Nothing there: the open that follows creates it, or says it is missing.
            return;
        }
        if (!attributes.isRegularFile()) {
            String kind = attributes.isDirectory() ? "a directory" : "a pipe, socket or device";
            throw new FileSystemException(file.toString(), null, "not a regular file but " + kind);
        }
    }
}
