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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Linux {@code fallocate(2)} with {@code FALLOC_FL_KEEP_SIZE}, called through the FFM linker
 * because Java has no API for it: gives a file disk blocks ahead of its writes without changing
 * its length or its contents. A write into blocks the file already has skips the file system's
 * per-page block reservation (about 100 ns of each 1.7 KB appended record on ext4 here, see
 * docs/PERFORMANCE.md, stop 24). RocksDB preallocates its WAL files the same way.
 *
 * <p>The call opens the file by name, so the caller must not rename it meanwhile. Off Linux on
 * x86-64 or AArch64 (whose flag and errno values these are, with a 64-bit {@code off_t}), where
 * the C library lacks the function, or where native access is denied, {@link #reserve} does
 * nothing and returns false.
 */
final class KeepSizeFallocate {
    // Linux's values on x86-64 and AArch64 (Natives.link checks the architecture).
    private static final int O_WRONLY = 1;
    private static final int O_CLOEXEC = 0x80000;
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final int EINTR = 4;
    private static final int ENOSYS = 38;
    private static final int EOPNOTSUPP = 95;
    private static final int MAX_INTERRUPTED_TRIES = 8;

    /** open, fallocate, close, strerror and ftruncate; null where unavailable. */
    private static final Natives NATIVES = Natives.link();

    private KeepSizeFallocate() {
    }

    /** Whether {@link #reserve} can do anything in this process. */
    static boolean available() {
        return NATIVES != null;
    }

    /**
     * Gives {@code file} disk blocks for the bytes {@code [position, position + length)}.
     *
     * @return false, having done nothing, where this process or the file's file system cannot
     *         preallocate (tmpfs and ext4 can)
     * @throws IOException naming the file, range and the C library's error (no space left, say)
     */
    static boolean reserve(Path file, long position, long length) throws IOException {
        if (position < 0 || length <= 0) {
            throw new IllegalArgumentException("cannot preallocate " + length + " bytes at " + position + " of " + file);
        }
        if (NATIVES == null) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Natives.STATE_LAYOUT);
            int fd = (int) NATIVES.open.invokeExact(state, arena.allocateFrom(file.toString()), O_WRONLY | O_CLOEXEC, 0);
            if (fd < 0) {
                throw failure("open", file, position, length, NATIVES.errno(state));
            }
            try {
                int errno = 0;
                for (int tries = 0; tries < MAX_INTERRUPTED_TRIES; tries++) {
                    int result = (int) NATIVES.fallocate.invokeExact(state, fd, FALLOC_FL_KEEP_SIZE, position, length);
                    errno = result == 0 ? 0 : NATIVES.errno(state);
                    if (errno != EINTR) {
                        break;
                    }
                }
                if (errno == EOPNOTSUPP || errno == ENOSYS) {
                    return false;
                }
                if (errno != 0) {
                    // A refused fallocate may have kept the blocks it got before it ran out
                    // (ext4 does; tmpfs gives them back): past the end of the file, where nothing
                    // reads them, they would hold the disk's last free space until the file is
                    // deleted, and the write that follows would fail on a disk with room left.
                    // ftruncate to the same length drops blocks past the end (ext4 truncates
                    // "even if i_size didn't change"); only when the range lies past every byte written.
                    long size = Files.size(file);
                    if (size <= position) {
                        int ignored = (int) NATIVES.ftruncate.invokeExact(state, fd, size);
                    }
                    throw failure("fallocate", file, position, length, errno);
                }
                return true;
            } finally {
                // Nothing was written through this descriptor, so close has nothing to report.
                int ignored = (int) NATIVES.close.invokeExact(state, fd);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("native call failed", t);
        }
    }

    private static IOException failure(String call, Path file, long position, long length, int errno) {
        return new IOException(String.format(Locale.ROOT, "%s for preallocating %s (%,d bytes at offset %,d) failed: %s (errno %d)",
                call, file, length, position, NATIVES.describe(errno), errno));
    }

    /** The linked C functions; every call captures errno into a state segment passed first. */
    private record Natives(MethodHandle open, MethodHandle fallocate, MethodHandle close, MethodHandle strerror,
                           MethodHandle ftruncate) {
        static final MemoryLayout STATE_LAYOUT = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = STATE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

        static Natives link() {
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
                MethodHandle open = linker.downcallHandle(libc.findOrThrow("open"),
                        FunctionDescriptor.of(cInt, ValueLayout.ADDRESS, cInt, cInt),
                        errno, Linker.Option.firstVariadicArg(2));
                MethodHandle fallocate = linker.downcallHandle(libc.findOrThrow("fallocate"),
                        FunctionDescriptor.of(cInt, cInt, cInt, offT, offT), errno);
                MethodHandle close = linker.downcallHandle(libc.findOrThrow("close"),
                        FunctionDescriptor.of(cInt, cInt), errno);
                MethodHandle strerror = linker.downcallHandle(libc.findOrThrow("strerror"),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, cInt));
                MethodHandle ftruncate = linker.downcallHandle(libc.findOrThrow("ftruncate"),
                        FunctionDescriptor.of(cInt, cInt, offT), errno);
                return new Natives(open, fallocate, close, strerror, ftruncate);
            } catch (RuntimeException | LinkageError e) {
                // No such symbol, or native access denied: preallocation is only an optimization.
                return null;
            }
        }

        int errno(MemorySegment state) {
            return (int) ERRNO.get(state, 0L);
        }

        String describe(int errno) {
            try {
                MemorySegment text = (MemorySegment) strerror.invokeExact(errno);
                return text.reinterpret(256).getString(0);
            } catch (Throwable t) {
                return "error";
            }
        }
    }
}
