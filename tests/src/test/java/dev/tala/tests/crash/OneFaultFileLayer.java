package dev.tala.tests.crash;

import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A fault-injecting layer whose k-th mutating operation from {@link #arm} on fails once, and
 * every other succeeds: a transient error the database lives on after, unlike a crash point,
 * after which nothing works. What the failure looks like is the {@link Kind}. A force that
 * fails goes through the fault layer's own failing force, so its bytes never become durable.
 */
final class OneFaultFileLayer extends ForwardingFileLayer {
    enum Kind {
        /** The operation throws an IOException and does nothing. */
        IO_ERROR,
        /** A write writes half its bytes and throws, as ENOSPC; any other operation as IO_ERROR. */
        DISK_FULL,
        /** A force fails and its file's unforced bytes never become durable; any other operation as IO_ERROR. */
        FAILED_FORCE
    }

    private final FaultInjectingFileLayer fault;
    private final Kind kind;
    private long counted;
    private long failAt = Long.MAX_VALUE;
    private String failed;

    OneFaultFileLayer(FaultInjectingFileLayer fault, Kind kind) {
        super(fault);
        this.fault = fault;
        this.kind = kind;
    }

    FaultInjectingFileLayer fault() {
        return fault;
    }

    /** The {@code k}-th mutating operation from now (0 the next) fails. */
    synchronized void arm(long k) {
        failAt = counted + k;
    }

    synchronized void disarm() {
        failAt = Long.MAX_VALUE;
    }

    /** The operation that failed, or null. */
    synchronized String failed() {
        return failed;
    }

    /** True when the operation is the one to fail (then it is recorded). */
    private synchronized boolean failsNow(String op) {
        long n = counted++;
        if (n == failAt) {
            failed = op;
            return true;
        }
        return false;
    }

    private void check(String op) throws IOException {
        if (failsNow(op)) {
            throw new IOException("injected failure of " + op);
        }
    }

    @Override
    public WritableFile create(Path file) throws IOException {
        check("create " + file);
        return wrap(fault.create(file));
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
        return wrap(fault.openForAppend(file));
    }

    private WritableFile wrap(WritableFile f) {
        return new WritableFile() {
            @Override
            public Path path() {
                return f.path();
            }

            @Override
            public void append(ByteBuffer source) throws IOException {
                if (failsNow("append " + f.path())) {
                    failWrite(source, () -> f.append(source));
                }
                f.append(source);
            }

            @Override
            public void write(long position, ByteBuffer source) throws IOException {
                if (failsNow("write " + f.path())) {
                    failWrite(source, () -> f.write(position, source));
                }
                f.write(position, source);
            }

            @Override
            public void force() throws IOException {
                if (failsNow("force " + f.path())) {
                    if (kind == Kind.FAILED_FORCE) {
                        Path p = f.path().toAbsolutePath();
                        fault.failForces(q -> q.toAbsolutePath().equals(p));
                        try {
                            f.force();
                        } finally {
                            fault.clearForceFailures();
                        }
                        throw new IllegalStateException("the fault layer's failing force returned");
                    }
                    throw new IOException("injected failure of force " + f.path());
                }
                f.force();
            }

            @Override
            public boolean preallocate(long position, long length) throws IOException {
                return f.preallocate(position, length);
            }

            @Override
            public void truncate(long size) throws IOException {
                check("truncate " + f.path());
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

    private interface WriteCall {
        void run() throws IOException;
    }

    /** Fails a write: as ENOSPC after half its bytes under DISK_FULL, before any otherwise. */
    private void failWrite(ByteBuffer source, WriteCall write) throws IOException {
        if (kind == Kind.DISK_FULL) {
            fault.diskFullAfter(source.remaining() / 2);
            try {
                write.run();
            } finally {
                fault.clearDiskFull();
            }
            throw new IllegalStateException("the fault layer's full disk took the whole write");
        }
        throw new IOException("injected failure of a write");
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        check("rename " + source + " -> " + target);
        fault.rename(source, target);
    }

    @Override
    public void delete(Path file) throws IOException {
        check("delete " + file);
        fault.delete(file);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        check("mkdir " + dir);
        fault.createDirectories(dir);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        check("fsync-dir " + dir);
        fault.syncDirectory(dir);
    }
}
