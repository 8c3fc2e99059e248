package dev.tala.core.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The Linux file calls Java has no API for, linked through FFM once: {@code fallocate} and
 * {@code sync_file_range}, with the {@code open}, {@code close}, {@code ftruncate} and
 * {@code strerror} around them. Each call captures {@code errno} into a state segment. A
 * FileChannel hides its descriptor, so callers open the file by name for the one call and close
 * it after ({@link #withDescriptor}).
 *
 * <p>The flag and errno values are Linux's on x86-64 and AArch64, whose {@code off_t} is 64 bits;
 * elsewhere, where the C library lacks a function, or where native access is denied,
 * {@link #get} returns null and callers do without.
 */
final class LinuxFileCalls {
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CLOEXEC = 0x80000;
    static final int FALLOC_FL_KEEP_SIZE = 1;
    static final int SYNC_FILE_RANGE_WRITE = 2;
    static final int EINTR = 4;
    static final int ENOENT = 2;
    static final int ENOSYS = 38;
    static final int EOPNOTSUPP = 95;

    private static final MemoryLayout STATE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = STATE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final LinuxFileCalls CALLS = link();

    private final MethodHandle open;
    private final MethodHandle close;
    private final MethodHandle fallocate;
    private final MethodHandle ftruncate;
    private final MethodHandle syncFileRange;
    private final MethodHandle strerror;

    private LinuxFileCalls(MethodHandle open, MethodHandle close, MethodHandle fallocate, MethodHandle ftruncate,
                           MethodHandle syncFileRange, MethodHandle strerror) {
        this.open = open;
        this.close = close;
        this.fallocate = fallocate;
        this.ftruncate = ftruncate;
        this.syncFileRange = syncFileRange;
        this.strerror = strerror;
    }

    /** The linked calls, or null where they cannot be had in this process. */
    static LinuxFileCalls get() {
        return CALLS;
    }

    private static LinuxFileCalls link() {
        String arch = System.getProperty("os.arch", "");
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                || !(arch.equals("amd64") || arch.equals("aarch64"))) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Linker.Option errno = Linker.Option.captureCallState("errno");
            ValueLayout.OfInt cInt = ValueLayout.JAVA_INT;
            ValueLayout.OfLong offT = ValueLayout.JAVA_LONG;
            return new LinuxFileCalls(
                    linker.downcallHandle(libc.findOrThrow("open"),
                            FunctionDescriptor.of(cInt, ValueLayout.ADDRESS, cInt, cInt), errno, Linker.Option.firstVariadicArg(2)),
                    linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(cInt, cInt), errno),
                    linker.downcallHandle(libc.findOrThrow("fallocate"),
                            FunctionDescriptor.of(cInt, cInt, cInt, offT, offT), errno),
                    linker.downcallHandle(libc.findOrThrow("ftruncate"), FunctionDescriptor.of(cInt, cInt, offT), errno),
                    // Optional: a C library without it still preallocates.
                    libc.find("sync_file_range").map(symbol -> linker.downcallHandle(symbol,
                            FunctionDescriptor.of(cInt, cInt, offT, offT, cInt), errno)).orElse(null),
                    linker.downcallHandle(libc.findOrThrow("strerror"), FunctionDescriptor.of(ValueLayout.ADDRESS, cInt)));
        } catch (RuntimeException | LinkageError e) {
            // No such symbol, or native access denied: every use of these calls is an optimization.
            return null;
        }
    }

    /** What to do with a descriptor: native calls whose errno lands in {@code state}. */
    interface OnDescriptor<T> {
        T apply(MemorySegment state, int fd) throws Throwable;
    }

    /** What an open that failed with {@code errno} comes to: a result, or an exception. */
    interface OnOpenFailure<T> {
        T apply(int errno) throws IOException;
    }

    /**
     * Opens {@code file} by name with {@code flags}, runs {@code call} on the descriptor and
     * closes it; a failed open goes to {@code onOpenFailure} instead. Nothing is written through
     * the descriptor, so closing it has nothing to report.
     */
    <T> T withDescriptor(Path file, int flags, OnDescriptor<T> call, OnOpenFailure<T> onOpenFailure)
            throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(STATE_LAYOUT);
            int fd = (int) open.invokeExact(state, arena.allocateFrom(file.toString()), flags | O_CLOEXEC, 0);
            if (fd < 0) {
                return onOpenFailure.apply(errno(state));
            }
            try {
                return call.apply(state, fd);
            } finally {
                int ignored = (int) close.invokeExact(state, fd);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("native call failed", t);
        }
    }

    /** The error of a refused call on a range of {@code file}, named as an operator reads it. */
    IOException failure(String call, String doing, Path file, long position, long length, int errno) {
        return new IOException(String.format(Locale.ROOT, "%s for %s %s (%,d bytes at offset %,d) failed: %s (errno %d)",
                call, doing, file, length, position, describe(errno), errno));
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    int fallocate(MemorySegment state, int fd, int mode, long offset, long length) throws Throwable {
        return (int) fallocate.invokeExact(state, fd, mode, offset, length);
    }

    int ftruncate(MemorySegment state, int fd, long length) throws Throwable {
        return (int) ftruncate.invokeExact(state, fd, length);
    }

    /** Whether {@link #syncFileRange} is there to call. */
    boolean hasSyncFileRange() {
        return syncFileRange != null;
    }

    int syncFileRange(MemorySegment state, int fd, long offset, long length, int flags) throws Throwable {
        return (int) syncFileRange.invokeExact(state, fd, offset, length, flags);
    }

    /** The C library's text for {@code errno}. */
    String describe(int errno) {
        try {
            MemorySegment text = (MemorySegment) strerror.invokeExact(errno);
            return text.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "error";
        }
    }
}
