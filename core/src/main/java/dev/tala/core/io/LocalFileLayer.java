package dev.tala.core.io;

import dev.tala.core.error.DatabaseLockedException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file layer over the real file system, with FileChannel I/O and FFM mappings. Its channels
 * ignore Java interrupts ({@link UninterruptibleChannels}): an interrupted caller's operation
 * completes and its interrupt flag stays set.
 */
public final class LocalFileLayer implements FileLayer {
    private static final Logger LOG = LoggerFactory.getLogger(LocalFileLayer.class);
    /** One instance is enough; it holds no state but the process-wide lock table. */
    public static final LocalFileLayer INSTANCE = new LocalFileLayer();

    private LocalFileLayer() {
    }

    @Override
    public WritableFile create(Path file) throws IOException {
        FileChannel ch = UninterruptibleChannels.openFile(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        return new ChannelWritableFile(file, ch);
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
        FileChannel ch = UninterruptibleChannels.openFile(file, StandardOpenOption.WRITE);
        return new ChannelWritableFile(file, ch);
    }

    @Override
    public ReadableFile openForRead(Path file) throws IOException {
        return new ChannelReadableFile(file, UninterruptibleChannels.openFile(file, StandardOpenOption.READ));
    }

    @Override
    public MappedRegion map(Path file) throws IOException {
        try (FileChannel ch = UninterruptibleChannels.openFile(file, StandardOpenOption.READ)) {
            Arena arena = Arena.ofShared();
            try {
                MemorySegment segment = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena);
                return new ArenaMappedRegion(file, segment, arena);
            } catch (IOException | RuntimeException e) {
                arena.close();
                throw e;
            }
        }
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public boolean isDirectory(Path path) {
        return Files.isDirectory(path);
    }

    @Override
    public long size(Path file) throws IOException {
        return Files.size(file);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (Files.isRegularFile(p)) {
                    out.add(p);
                }
            }
        } catch (NoSuchFileException e) {
            return out;
        }
        out.sort(null);
        return out;
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = UninterruptibleChannels.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    @Override
    public boolean startWriteback(Path file, long position, long length) throws IOException {
        return WritebackHint.start(file, position, length);
    }

    @Override
    public DirectoryLock lock(Path lockFile) throws IOException {
        return LocalDirectoryLocks.exclusive(lockFile);
    }

    @Override
    public DirectoryLock lockShared(Path lockFile) throws IOException {
        return LocalDirectoryLocks.shared(lockFile);
    }

    private static final class ChannelWritableFile implements WritableFile {
        private final Path path;
        private final FileChannel channel;
        /** Whether a preallocation gave this file blocks past its end, which close gives back. */
        private boolean preallocated;

        ChannelWritableFile(Path path, FileChannel channel) throws IOException {
            this.path = path;
            this.channel = channel;
            channel.position(channel.size());
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void append(ByteBuffer source) throws IOException {
            try {
                while (source.hasRemaining()) {
                    channel.write(source);
                }
            } catch (IOException e) {
                throw named("writing", e);
            }
        }

        @Override
        public void write(long position, ByteBuffer source) throws IOException {
            long at = position;
            try {
                while (source.hasRemaining()) {
                    at += channel.write(source, at);
                }
            } catch (IOException e) {
                throw named("writing", e);
            }
        }

        @Override
        public void force() throws IOException {
            // fdatasync: the data and the file length, which is all a reader needs.
            try {
                channel.force(false);
            } catch (IOException e) {
                throw named("forcing", e);
            }
        }

        /**
         * The JDK's write and force errors carry only the C library's text ("No space left on
         * device"), so the database's error would not say which file failed; this names it,
         * as the fault-injecting layer's simulated errors do. Channel states (closed) pass as they are.
         */
        private IOException named(String doing, IOException e) {
            if (e instanceof ClosedChannelException || e instanceof FileSystemException) {
                return e;
            }
            FileSystemException named = new FileSystemException(path.toString(), null,
                    (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + " (" + doing + ")");
            named.initCause(e);
            return named;
        }

        @Override
        public boolean preallocate(long position, long length) throws IOException {
            boolean done = KeepSizeFallocate.reserve(path, position, length);
            preallocated |= done;
            return done;
        }

        @Override
        public void truncate(long size) throws IOException {
            channel.truncate(size);
            channel.position(Math.min(channel.position(), size));
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        /**
         * Closes the file, first giving back the preallocated blocks past its end that no write
         * filled: nothing writes there once it is closed. Kept, they stayed until the file was
         * deleted, up to a whole preallocation step per file; a WAL file written to only a little
         * before a close is kept until a flush, so a database reopened often under NONE or BATCH
         * durability held about 8 MiB of disk per open for kilobytes of records.
         */
        @Override
        public void close() throws IOException {
            try {
                if (preallocated && channel.isOpen()) {
                    preallocated = false;
                    KeepSizeFallocate.releaseBeyondEnd(path);
                }
            } catch (IOException | RuntimeException e) {
                // Only space is at stake, not the file's bytes: the blocks stay until the file is deleted.
                LOG.debug("could not release the preallocated blocks of {}", path, e);
            } finally {
                channel.close();
            }
        }
    }

    private static final class ChannelReadableFile implements ReadableFile {
        private final Path path;
        private final FileChannel channel;

        ChannelReadableFile(Path path, FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public void readFully(long position, ByteBuffer destination) throws IOException {
            long at = position;
            int wanted = destination.remaining();
            while (destination.hasRemaining()) {
                int n = channel.read(destination, at);
                if (n < 0) {
                    throw FileLayer.shortRead(path, position, wanted, channel.size());
                }
                at += n;
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private static final class ArenaMappedRegion implements MappedRegion {
        private final Path path;
        private final MemorySegment segment;
        private final Arena arena;
        private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

        ArenaMappedRegion(Path path, MemorySegment segment, Arena arena) {
            this.path = path;
            this.segment = segment;
            this.arena = arena;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public MemorySegment segment() {
            return segment;
        }

        /** Unmaps once; later calls do nothing. */
        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                arena.close();
            }
        }
    }
}
