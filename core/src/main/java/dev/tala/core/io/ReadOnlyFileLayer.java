package dev.tala.core.io;

import dev.tala.core.error.ReadOnlyException;
import java.nio.file.Path;

/**
 * The file layer of a database opened read-only: reads, listings, mappings and the shared
 * lock pass through; anything that would change a file or a directory is refused, so a step
 * of the open that forgot it was read-only fails loudly instead of repairing a database its
 * caller only meant to look at.
 */
public final class ReadOnlyFileLayer extends ForwardingFileLayer {
    public ReadOnlyFileLayer(FileLayer inner) {
        super(inner);
    }

    private static ReadOnlyException refused(String what, Path path) {
        return new ReadOnlyException("the database was opened read-only; " + what + " " + path + " was refused");
    }

    @Override
    public WritableFile create(Path file) {
        throw refused("creating", file);
    }

    @Override
    public WritableFile openForAppend(Path file) {
        throw refused("writing", file);
    }

    @Override
    public void rename(Path source, Path target) {
        throw refused("renaming to " + target + ":", source);
    }

    @Override
    public void delete(Path file) {
        throw refused("deleting", file);
    }

    @Override
    public void createDirectories(Path dir) {
        throw refused("creating", dir);
    }

    @Override
    public void syncDirectory(Path dir) {
        throw refused("syncing", dir);
    }

    @Override
    public boolean startWriteback(Path file, long position, long length) {
        throw refused("writing back", file);
    }

    @Override
    public DirectoryLock lock(Path lockFile) {
        throw refused("the writer's lock on", lockFile);
    }
}
