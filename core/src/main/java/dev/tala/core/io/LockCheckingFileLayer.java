package dev.tala.core.io;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The file layer an open database works through: before each create, rename or delete (by
 * path) it checks that the database still holds the lock file it took at open. Without it, a
 * database whose directory was deleted while open and replaced by a new database at the same
 * path (an operator's {@code rm -rf} and restart while the old process still ran) went on
 * creating WAL files and segments in the new database and deleting its WAL files, with its
 * acknowledged writes in them. The check costs a stat per namespace change; reads and the
 * writes to files already open pass straight through, unwrapped.
 */
public final class LockCheckingFileLayer extends ForwardingFileLayer {
    private final DirectoryLock lock;

    public LockCheckingFileLayer(FileLayer inner, DirectoryLock lock) {
        super(inner);
        this.lock = lock;
    }

    @Override
    public WritableFile create(Path file) throws IOException {
        lock.checkHeld();
        return inner.create(file);
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
        lock.checkHeld();
        return inner.openForAppend(file);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        lock.checkHeld();
        inner.rename(source, target);
    }

    @Override
    public void delete(Path file) throws IOException {
        lock.checkHeld();
        inner.delete(file);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        lock.checkHeld();
        inner.createDirectories(dir);
    }
}
