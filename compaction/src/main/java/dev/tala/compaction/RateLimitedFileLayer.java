package dev.tala.compaction;

import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.ReadableFile;
import dev.tala.core.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A file layer whose writes take their size from a token bucket first. Compaction writes its
 * outputs through one of these so that a background merge does not starve foreground flushes
 * and WAL syncs of disk bandwidth. Throttling at the file layer catches every write the segment
 * writer makes (its buffer-sized appends and the final header rewrite) without the writer
 * knowing about rates. Everything else is passed through unchanged. One instance serves one
 * compaction, on one thread.
 */
final class RateLimitedFileLayer implements FileLayer {
    private final FileLayer inner;
    private final TokenBucket bucket;
    private long throttledNanos;

    RateLimitedFileLayer(FileLayer inner, TokenBucket bucket) {
        this.inner = inner;
        this.bucket = bucket;
    }

    /** Time this layer's writes slept (the bucket may be shared with other writers). */
    long throttledNanos() {
        return throttledNanos;
    }

    private void throttle(long bytes) throws IOException {
        throttledNanos += bucket.acquire(bytes);
    }

    @Override
    public WritableFile create(Path file) throws IOException {
        return new Throttled(inner.create(file));
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
        return new Throttled(inner.openForAppend(file));
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
    public DirectoryLock lock(Path lockFile) throws IOException {
        return inner.lock(lockFile);
    }

    private final class Throttled implements WritableFile {
        private final WritableFile file;

        Throttled(WritableFile file) {
            this.file = file;
        }

        @Override
        public Path path() {
            return file.path();
        }

        @Override
        public void append(ByteBuffer source) throws IOException {
            throttle(source.remaining());
            file.append(source);
        }

        @Override
        public void write(long position, ByteBuffer source) throws IOException {
            throttle(source.remaining());
            file.write(position, source);
        }

        @Override
        public void force() throws IOException {
            file.force();
        }

        @Override
        public void truncate(long size) throws IOException {
            file.truncate(size);
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
