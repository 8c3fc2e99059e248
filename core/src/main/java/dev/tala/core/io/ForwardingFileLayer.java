package dev.tala.core.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A file layer that forwards everything to another one. Subclasses override the hooks to
 * throttle writes (compaction's rate limiter), to time forces (GroupCommitProbe) or, in tests,
 * to slow down, count or fail particular operations.
 */
public class ForwardingFileLayer implements FileLayer {
    protected final FileLayer inner;

    public ForwardingFileLayer(FileLayer inner) {
        this.inner = inner;
    }

    /** Runs before every force of a writable file. */
    protected void beforeForce(Path file) throws IOException {
    }

    /**
     * False makes a force of {@code file} return without forcing: its bytes stay where the OS
     * put them, as with a process that never forced before it was killed.
     */
    protected boolean forces(Path file) {
        return true;
    }

    /** Runs after every force that returned normally, with how long the inner force took. */
    protected void afterForce(Path file, long nanos) throws IOException {
    }

    /** Runs before every append or positional write, with the number of bytes. */
    protected void beforeWrite(Path file, long bytes) throws IOException {
    }

    /**
     * Runs before every preallocation, with the range asked for: false answers that this layer
     * cannot preallocate (the inner one is not asked), throwing refuses it.
     */
    protected boolean beforePreallocate(Path file, long position, long length) throws IOException {
        return true;
    }

    @Override
    public WritableFile create(Path file) throws IOException {
        return wrap(inner.create(file));
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
        return wrap(inner.openForAppend(file));
    }

    private WritableFile wrap(WritableFile f) {
        return new WritableFile() {
            @Override
            public Path path() {
                return f.path();
            }

            @Override
            public void append(ByteBuffer source) throws IOException {
                beforeWrite(f.path(), source.remaining());
                f.append(source);
            }

            @Override
            public void write(long position, ByteBuffer source) throws IOException {
                beforeWrite(f.path(), source.remaining());
                f.write(position, source);
            }

            @Override
            public void force() throws IOException {
                beforeForce(f.path());
                if (!forces(f.path())) {
                    return;
                }
                long start = System.nanoTime();
                f.force();
                afterForce(f.path(), System.nanoTime() - start);
            }

            @Override
            public boolean preallocate(long position, long length) throws IOException {
                return beforePreallocate(f.path(), position, length) && f.preallocate(position, length);
            }

            @Override
            public void truncate(long size) throws IOException {
                f.truncate(size);
            }

            @Override
            public long size() throws IOException {
                return f.size();
            }

            @Override
            public void close() throws IOException {
                f.close();
            }
        };
    }

    @Override
    public ReadableFile openForRead(Path file) throws IOException {
        return inner.openForRead(file);
    }

    @Override
    public MappedRegion map(Path file) throws IOException {
        return inner.map(file);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        inner.rename(source, target);
    }

    @Override
    public void delete(Path file) throws IOException {
        inner.delete(file);
    }

    @Override
    public boolean exists(Path path) {
        return inner.exists(path);
    }

    @Override
    public boolean isDirectory(Path path) {
        return inner.isDirectory(path);
    }

    @Override
    public long size(Path file) throws IOException {
        return inner.size(file);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return inner.list(dir);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        inner.createDirectories(dir);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        inner.syncDirectory(dir);
    }

    @Override
    public boolean startWriteback(Path file, long position, long length) throws IOException {
        return inner.startWriteback(file, position, length);
    }

    @Override
    public DirectoryLock lock(Path lockFile) throws IOException {
        return inner.lock(lockFile);
    }

    @Override
    public DirectoryLock lockShared(Path lockFile) throws IOException {
        return inner.lockShared(lockFile);
    }
}
