package dev.tala.core.io.fault;

import dev.tala.core.io.DirectoryLock;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.ReadableFile;
import dev.tala.core.io.WritableFile;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A file layer over the real file system that remembers what was made durable and can take it
 * away, the way LevelDB's fault-injection Env and Lucene's MockDirectoryWrapper do.
 *
 * <p>What it models:
 * <ul>
 *   <li><b>Power loss</b> ({@link #powerLoss}): each file keeps only the bytes it had at its last
 *       successful force; creates, renames, deletes and new directories not followed by a sync
 *       of their directory are undone. Optionally a random prefix of the unforced tail survives
 *       (a torn write) or the tail reads back as zeros (a file length that outran its data).</li>
 *   <li><b>Crash after k operations</b> ({@link #crashAfter}): the first k mutating operations
 *       happen, every later one throws {@link SimulatedCrashException}. Sweeping k over every
 *       value visits every point at which a process can die; {@link #crashBefore} names the
 *       operation instead.</li>
 *   <li><b>Kill</b> ({@link #kill}): the process dies but the machine runs on, so its unforced
 *       writes are still there for the next process to read, until a power loss.</li>
 *   <li><b>Full disk</b> ({@link #diskFullAfter}): writes past a byte budget write what fits and
 *       throw an IOException, as ENOSPC does; a preallocation larger than the budget is refused.</li>
 *   <li><b>Failing force</b> ({@link #failForces}): the force throws, and what it should have made
 *       durable never becomes durable, even if a later force on that file "succeeds" (as after a
 *       Linux writeback error). Code that retries a force as if the data were safe loses data
 *       at the next power loss, where a test sees it.</li>
 *   <li><b>Bit flips on read</b> ({@link #flipBitOnRead}): reads and mappings of a file see one
 *       bit inverted.</li>
 * </ul>
 *
 * <p>After {@link #powerLoss} this instance is dead (every operation throws, but a
 * preallocation, which answers that it cannot, and a writeback hint, which never has an
 * effect here), as the process
 * that used it would be; reopen the database through a new instance over the same directory.
 * All operations are serialized on one lock: this layer is for correctness, not speed. It
 * issues no real fsync: what is durable is exactly what it models.
 */
public final class FaultInjectingFileLayer implements FileLayer {
    /** What happens to bytes written after a file's last successful force. */
    public enum PowerLossMode {
        /** All of them are lost. */
        DROP_UNSYNCED,
        /** A random prefix of each file's unforced tail survives (a torn write). */
        TORN_TAIL,
        /** The file keeps a random part of its new length, but that part reads as zeros. */
        ZERO_FILLED_TAIL,
        /**
         * Each unforced sector ({@link FileLayer#SECTOR_BYTES}) reached the disk or not, in no
         * order: the file keeps its new length, a lost sector of new bytes reads as zeros, and a
         * lost sector of overwritten forced bytes holds them again. Nothing but a force orders
         * writes, so a later sector can survive an earlier one.
         */
        LOST_SECTORS
    }

    private static final int OPERATION_LOG_SIZE = 64;

    private final FileLayer real = LocalFileLayer.INSTANCE;
    private final Object mutex = new Object();
    private final Path stashDir;
    private final Map<Path, FileState> files = new HashMap<>();
    private final List<NamespaceOp> pendingNamespaceOps = new ArrayList<>();
    private final Deque<String> operationLog = new ArrayDeque<>();
    private final Map<Path, List<Long>> bitFlips = new HashMap<>();

    private long mutatingOperations;
    private long crashAfter = Long.MAX_VALUE;
    private Predicate<String> crashBefore = op -> false;
    private boolean crashed;
    private String crashedAt;
    private boolean dead;
    private long diskBudget = Long.MAX_VALUE;
    private Predicate<Path> failingForces = p -> false;
    private long stashCounter;

    private final List<DirectoryLock> heldLocks = new ArrayList<>();

    /**
     * A layer whose not-yet-durable deletes wait in {@code stashDir} (created if missing; put it
     * outside the database directory, e.g. beside it in a test's temporary folder).
     */
    public FaultInjectingFileLayer(Path stashDir) {
        try {
            this.stashDir = Files.createDirectories(stashDir);
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the stash directory " + stashDir, e);
        }
    }

    // ---- fault controls -------------------------------------------------------------------

    /** The first {@code k} mutating operations from now on succeed; every later one throws. */
    public void crashAfter(long k) {
        synchronized (mutex) {
            crashAfter = mutatingOperations + k;
        }
    }

    /**
     * The mutating operations before the first one whose description (as in
     * {@link #recentOperations}: {@code "force /db/MANIFEST"}, {@code "fsync-dir /db"}, ...)
     * {@code matches} succeed; that one and every later one throws.
     */
    public void crashBefore(Predicate<String> matches) {
        synchronized (mutex) {
            crashBefore = matches;
        }
    }

    /**
     * The process using this layer is killed (SIGKILL), not the machine: what it wrote stays
     * written but unforced, and its creates, renames and deletes stay pending, for a later
     * {@link #powerLoss} to take; its locks are released and its crash point cleared, so the
     * next process opens through this same layer. Close the killed process's database first
     * (its close fails at the crash point, as it should), so that none of its threads writes on.
     */
    public void kill() throws IOException {
        synchronized (mutex) {
            if (dead) {
                throw new IllegalStateException("the power is off: there is no process to kill");
            }
            for (DirectoryLock lock : heldLocks) {
                lock.close();
            }
            heldLocks.clear();
            crashed = false;
            crashedAt = null;
            crashAfter = Long.MAX_VALUE;
            crashBefore = op -> false;
        }
    }

    /** Mutating operations performed so far (create, append, write, truncate, force, rename, delete, mkdir, directory sync). */
    public long mutatingOperations() {
        synchronized (mutex) {
            return mutatingOperations;
        }
    }

    public boolean hasCrashed() {
        synchronized (mutex) {
            return crashed;
        }
    }

    /** The operation that hit the crash point, for test messages; null if none did. */
    public String crashedAt() {
        synchronized (mutex) {
            return crashedAt;
        }
    }

    /** The last few operations, newest last: what a failing sweep prints. */
    public List<String> recentOperations() {
        synchronized (mutex) {
            return List.copyOf(operationLog);
        }
    }

    /** From now on at most {@code bytes} more bytes can be written. */
    public void diskFullAfter(long bytes) {
        synchronized (mutex) {
            diskBudget = bytes;
        }
    }

    public void clearDiskFull() {
        synchronized (mutex) {
            diskBudget = Long.MAX_VALUE;
        }
    }

    /** Every force of a file matching {@code which} fails from now on. */
    public void failForces(Predicate<Path> which) {
        synchronized (mutex) {
            failingForces = which;
        }
    }

    public void clearForceFailures() {
        synchronized (mutex) {
            failingForces = p -> false;
        }
    }

    /** Reads and mappings of {@code file} see the bit {@code bitOffset} (counted from byte 0) inverted. */
    public void flipBitOnRead(Path file, long bitOffset) {
        synchronized (mutex) {
            bitFlips.computeIfAbsent(key(file), k -> new ArrayList<>()).add(bitOffset);
        }
    }

    /** Cuts the power: see the class comment. Afterwards this instance is dead. */
    public void powerLoss(PowerLossMode mode, long seed) throws IOException {
        synchronized (mutex) {
            // Mixed first: java.util.Random's first draws barely differ between nearby seeds
            // (its first nextBoolean is the same for every seed below 4096), and sweeps pass 0, 1, 2...
            Random random = new Random(new SplittableRandom(seed).nextLong());
            for (Map.Entry<Path, FileState> e : files.entrySet()) {
                revertContent(e.getKey(), e.getValue(), mode, random);
            }
            for (int i = pendingNamespaceOps.size() - 1; i >= 0; i--) {
                pendingNamespaceOps.get(i).undo(this);
            }
            pendingNamespaceOps.clear();
            files.clear();
            // The process that held them is gone, and so are its locks.
            for (DirectoryLock lock : heldLocks) {
                lock.close();
            }
            heldLocks.clear();
            dead = true;
            crashed = true;
            FileTrees.delete(stashDir);
        }
    }

    /** Power loss that drops every unforced byte. */
    public void powerLoss() throws IOException {
        powerLoss(PowerLossMode.DROP_UNSYNCED, 0);
    }

    // ---- the file layer -------------------------------------------------------------------

    @Override
    public WritableFile create(Path file) throws IOException {
        synchronized (mutex) {
            Path k = key(file);
            mutate("create " + k);
            boolean existed = Files.exists(k);
            FileState state = stateOf(k);
            if (existed) {
                state.recordOverwrite(k, 0, Files.size(k));
            }
            WritableFile inner = real.create(k);
            if (!existed) {
                state.durableLength = 0;
                pendingNamespaceOps.add(NamespaceOp.create(k));
            }
            return new FaultWritableFile(k, inner, state);
        }
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
        synchronized (mutex) {
            checkAlive();
            Path k = key(file);
            WritableFile inner = real.openForAppend(k);
            return new FaultWritableFile(k, inner, stateOf(k));
        }
    }

    @Override
    public ReadableFile openForRead(Path file) throws IOException {
        synchronized (mutex) {
            checkAlive();
            Path k = key(file);
            return new FaultReadableFile(k, real.openForRead(k));
        }
    }

    @Override
    public MappedRegion map(Path file) throws IOException {
        synchronized (mutex) {
            checkAlive();
            Path k = key(file);
            List<Long> flips = bitFlips.get(k);
            if (flips == null) {
                return real.map(k);
            }
            byte[] bytes = Files.readAllBytes(k);
            Arena arena = Arena.ofShared();
            MemorySegment copy = arena.allocate(Math.max(1, bytes.length), 64).asSlice(0, bytes.length);
            MemorySegment.copy(bytes, 0, copy, ValueLayout.JAVA_BYTE, 0, bytes.length);
            for (long bit : flips) {
                if (bit / 8 < bytes.length) {
                    byte b = copy.get(ValueLayout.JAVA_BYTE, bit / 8);
                    copy.set(ValueLayout.JAVA_BYTE, bit / 8, (byte) (b ^ (1 << (bit % 8))));
                }
            }
            MemorySegment readOnly = copy.asReadOnly();
            java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
            return new MappedRegion() {
                @Override
                public Path path() {
                    return k;
                }

                @Override
                public MemorySegment segment() {
                    return readOnly;
                }

                @Override
                public void close() {
                    if (closed.compareAndSet(false, true)) {
                        arena.close();
                    }
                }
            };
        }
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        synchronized (mutex) {
            Path from = key(source);
            Path to = key(target);
            mutate("rename " + from + " -> " + to);
            if (!Files.exists(from)) {
                throw new NoSuchFileException(from.toString());
            }
            Path replacedStash = null;
            FileState replacedState = null;
            if (Files.exists(to)) {
                replacedStash = nextStash();
                replacedState = stateOf(to);
                Files.move(to, replacedStash, StandardCopyOption.ATOMIC_MOVE);
                files.remove(to);
            }
            FileState movingState = stateOf(from);
            real.rename(from, to);
            files.remove(from);
            files.put(to, movingState);
            pendingNamespaceOps.add(NamespaceOp.rename(from, to, replacedStash, replacedState));
        }
    }

    @Override
    public void delete(Path file) throws IOException {
        synchronized (mutex) {
            Path k = key(file);
            mutate("delete " + k);
            if (!Files.exists(k)) {
                return;
            }
            Path stash = nextStash();
            FileState state = stateOf(k);
            Files.move(k, stash, StandardCopyOption.ATOMIC_MOVE);
            files.remove(k);
            pendingNamespaceOps.add(NamespaceOp.delete(k, stash, state));
        }
    }

    @Override
    public boolean exists(Path path) {
        synchronized (mutex) {
            return Files.exists(key(path));
        }
    }

    @Override
    public boolean isDirectory(Path path) {
        synchronized (mutex) {
            return Files.isDirectory(key(path));
        }
    }

    @Override
    public long size(Path file) throws IOException {
        synchronized (mutex) {
            checkAlive();
            return Files.size(key(file));
        }
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        synchronized (mutex) {
            checkAlive();
            return real.list(key(dir));
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        synchronized (mutex) {
            Path k = key(dir);
            if (Files.isDirectory(k)) {
                return;
            }
            mutate("mkdir " + k);
            Deque<Path> missing = new ArrayDeque<>();
            for (Path p = k; p != null && !Files.exists(p); p = p.getParent()) {
                missing.push(p);
            }
            real.createDirectories(k);
            for (Path created : missing) {
                pendingNamespaceOps.add(NamespaceOp.mkdir(created));
            }
        }
    }

    @Override
    public void syncDirectory(Path dir) throws IOException {
        synchronized (mutex) {
            Path k = key(dir);
            mutate("fsync-dir " + k);
            // An operation is durable once every directory it touched was synced after it.
            for (var it = pendingNamespaceOps.iterator(); it.hasNext(); ) {
                NamespaceOp op = it.next();
                op.unsyncedDirs.remove(k);
                if (op.unsyncedDirs.isEmpty()) {
                    op.commit();
                    it.remove();
                }
            }
        }
    }

    /**
     * Does nothing and says it did: a writeback hint makes nothing durable, and a power loss here
     * keeps or loses each unforced sector whatever was hinted, as a real disk may have written
     * any of them early. Not counted as an operation, so that a hint from a background thread
     * moves no crash point.
     */
    @Override
    public boolean startWriteback(Path file, long position, long length) {
        return true;
    }

    @Override
    public DirectoryLock lock(Path lockFile) throws IOException {
        return held(() -> real.lock(key(lockFile)));
    }

    @Override
    public DirectoryLock lockShared(Path lockFile) throws IOException {
        return held(() -> real.lockShared(key(lockFile)));
    }

    private interface LockCall {
        DirectoryLock take() throws IOException;
    }

    /**
     * Takes a lock that a power loss releases, with the process that held it. Taken outside the
     * layer's mutex: a writer's lock waits for read-only openers, whose file calls need the mutex.
     */
    private DirectoryLock held(LockCall call) throws IOException {
        synchronized (mutex) {
            checkAlive();
        }
        DirectoryLock lock = call.take();
        synchronized (mutex) {
            if (dead) {
                lock.close();
                checkAlive();
            }
            heldLocks.add(lock);
            return lock;
        }
    }

    // ---- internals ------------------------------------------------------------------------

    private static Path key(Path p) {
        return p.toAbsolutePath().normalize();
    }

    private FileState stateOf(Path k) throws IOException {
        FileState s = files.get(k);
        if (s == null) {
            // A file this layer has not touched yet is as durable as it is.
            s = new FileState(Files.exists(k) ? Files.size(k) : 0);
            files.put(k, s);
        }
        return s;
    }

    private void checkAlive() throws IOException {
        if (dead || crashed) {
            throw new SimulatedCrashException("the simulated machine has crashed"
                    + (crashedAt == null ? "" : " (at: " + crashedAt + ")"));
        }
    }

    /** Counts a mutating operation, or refuses it if the crash point has been passed. */
    private void mutate(String description) throws IOException {
        checkAlive();
        if (mutatingOperations >= crashAfter || crashBefore.test(description)) {
            crashed = true;
            crashedAt = description;
            log("CRASH before " + description);
            throw new SimulatedCrashException("simulated crash before operation " + (mutatingOperations + 1)
                    + ": " + description);
        }
        mutatingOperations++;
        log(mutatingOperations + ": " + description);
    }

    private void log(String line) {
        if (operationLog.size() == OPERATION_LOG_SIZE) {
            operationLog.removeFirst();
        }
        operationLog.addLast(line);
    }

    /** Takes {@code n} bytes from the disk budget; returns how many fit. */
    private long reserve(long n) {
        long granted = Math.min(n, diskBudget);
        if (diskBudget != Long.MAX_VALUE) {
            diskBudget -= granted;
        }
        return granted;
    }

    private Path nextStash() {
        return stashDir.resolve(Long.toString(stashCounter++));
    }

    private void revertContent(Path path, FileState state, PowerLossMode mode, Random random) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        byte[] current = Files.readAllBytes(path);
        if (state.undo.isEmpty() && current.length == state.durableLength) {
            return;
        }
        int durable = (int) state.durableLength;
        if (mode == PowerLossMode.LOST_SECTORS) {
            replaceContent(path, sectorsThatSurvived(current, state, random));
            return;
        }
        int unforcedTail = Math.max(0, current.length - durable);
        int keptTail = switch (mode) {
            case DROP_UNSYNCED -> 0;
            case TORN_TAIL, ZERO_FILLED_TAIL -> unforcedTail == 0 ? 0 : random.nextInt(unforcedTail + 1);
            case LOST_SECTORS -> throw new AssertionError(mode);
        };
        byte[] image = new byte[durable + keptTail];
        System.arraycopy(current, 0, image, 0, Math.min(current.length, durable));
        if (mode == PowerLossMode.TORN_TAIL && keptTail > 0) {
            // Only a file longer than its durable length has a tail; a cut one is restored below.
            System.arraycopy(current, durable, image, durable, keptTail);
        }
        for (int i = state.undo.size() - 1; i >= 0; i--) {
            Undo u = state.undo.get(i);
            System.arraycopy(u.oldBytes, 0, image, (int) u.position, u.oldBytes.length);
        }
        replaceContent(path, image);
    }

    /**
     * {@code current} with each unforced sector kept or lost by one coin toss (see
     * {@link PowerLossMode#LOST_SECTORS}): a lost sector's new bytes read as zeros and its
     * overwritten forced bytes as they were, all of them together.
     */
    private static byte[] sectorsThatSurvived(byte[] current, FileState state, Random random) {
        int sector = FileLayer.SECTOR_BYTES;
        int durable = (int) state.durableLength;
        TreeSet<Long> unforced = new TreeSet<>();
        for (long at = durable / sector * sector; at < current.length; at += sector) {
            unforced.add(at);
        }
        for (Undo u : state.undo) {
            for (long at = u.position / sector * sector; at < u.position + u.oldBytes.length; at += sector) {
                unforced.add(at);
            }
        }
        byte[] image = Arrays.copyOf(current, Math.max(current.length, durable));
        for (long at : unforced) {
            if (random.nextBoolean()) {
                continue; // it reached the disk
            }
            long end = at + sector;
            int newFrom = (int) Math.max(at, durable);
            int newTo = (int) Math.min(end, current.length);
            if (newFrom < newTo) {
                Arrays.fill(image, newFrom, newTo, (byte) 0);
            }
            for (int i = state.undo.size() - 1; i >= 0; i--) {
                Undo u = state.undo.get(i);
                long from = Math.max(at, u.position);
                long to = Math.min(end, u.position + u.oldBytes.length);
                if (from < to) {
                    System.arraycopy(u.oldBytes, (int) (from - u.position), image, (int) from, (int) (to - from));
                }
            }
        }
        return image;
    }

    private static void replaceContent(Path path, byte[] image) throws IOException {
        // Write beside and rename over, so a stale mapping of the old inode never sees it shrink.
        Path tmp = path.resolveSibling(path.getFileName() + ".powerloss");
        Files.write(tmp, image);
        Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }


    /** What the file held at its last successful force, expressed as changes to undo. */
    private static final class FileState {
        long durableLength;
        final List<Undo> undo = new ArrayList<>();
        boolean forceFailed;

        FileState(long durableLength) {
            this.durableLength = durableLength;
        }

        /** Saves the durable bytes in [position, position+length) before they are overwritten. */
        void recordOverwrite(Path file, long position, long length) throws IOException {
            long end = Math.min(position + length, durableLength);
            if (position >= end) {
                return;
            }
            byte[] old = new byte[(int) (end - position)];
            try (ReadableFile in = LocalFileLayer.INSTANCE.openForRead(file)) {
                ByteBuffer buf = ByteBuffer.wrap(old);
                long available = Math.min(end, in.size()) - position;
                if (available > 0) {
                    buf.limit((int) available);
                    in.readFully(position, buf);
                }
            }
            undo.add(new Undo(position, old));
        }
    }

    private record Undo(long position, byte[] oldBytes) {
    }

    /** A create, rename, delete or mkdir that is undone unless its directories were synced. */
    private static final class NamespaceOp {
        enum Kind { CREATE, RENAME, DELETE, MKDIR }

        final Kind kind;
        final Path path;
        final Path target;
        final Path stash;
        final FileState stashedState;
        final Set<Path> unsyncedDirs = new HashSet<>();

        private NamespaceOp(Kind kind, Path path, Path target, Path stash, FileState stashedState) {
            this.kind = kind;
            this.path = path;
            this.target = target;
            this.stash = stash;
            this.stashedState = stashedState;
            unsyncedDirs.add(path.getParent());
            if (target != null) {
                unsyncedDirs.add(target.getParent());
            }
        }

        static NamespaceOp create(Path p) {
            return new NamespaceOp(Kind.CREATE, p, null, null, null);
        }

        static NamespaceOp rename(Path from, Path to, Path replacedStash, FileState replacedState) {
            return new NamespaceOp(Kind.RENAME, from, to, replacedStash, replacedState);
        }

        static NamespaceOp delete(Path p, Path stash, FileState state) {
            return new NamespaceOp(Kind.DELETE, p, null, stash, state);
        }

        static NamespaceOp mkdir(Path dir) {
            return new NamespaceOp(Kind.MKDIR, dir, null, null, null);
        }

        /** The operation became durable: what it removed can go for good. */
        void commit() throws IOException {
            if (stash != null) {
                Files.deleteIfExists(stash);
            }
        }

        void undo(FaultInjectingFileLayer layer) throws IOException {
            switch (kind) {
                case CREATE -> Files.deleteIfExists(path);
                case MKDIR -> FileTrees.delete(path);
                case RENAME -> {
                    if (Files.exists(target)) {
                        Files.createDirectories(path.getParent());
                        Files.move(target, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    }
                    if (stash != null) {
                        restore(layer, target);
                    }
                }
                case DELETE -> restore(layer, path);
            }
        }

        private void restore(FaultInjectingFileLayer layer, Path to) throws IOException {
            if (Files.exists(stash)) {
                Files.createDirectories(to.getParent());
                Files.move(stash, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                // The restored file comes back as it was at its last force.
                layer.revertContent(to, stashedState, PowerLossMode.DROP_UNSYNCED, new Random(0));
            }
        }
    }

    private final class FaultWritableFile implements WritableFile {
        private final Path path;
        private final WritableFile inner;
        private final FileState state;

        FaultWritableFile(Path path, WritableFile inner, FileState state) {
            this.path = path;
            this.inner = inner;
            this.state = state;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public void append(ByteBuffer source) throws IOException {
            synchronized (mutex) {
                mutate("append " + path + " " + source.remaining() + " bytes");
                long granted = reserve(source.remaining());
                ByteBuffer part = source.slice(source.position(), (int) granted);
                inner.append(part);
                source.position(source.position() + (int) granted);
                failIfShort(source);
            }
        }

        @Override
        public void write(long position, ByteBuffer source) throws IOException {
            synchronized (mutex) {
                mutate("write " + path + " @" + position + " " + source.remaining() + " bytes");
                long granted = reserve(source.remaining());
                state.recordOverwrite(path, position, granted);
                ByteBuffer part = source.slice(source.position(), (int) granted);
                inner.write(position, part);
                source.position(source.position() + (int) granted);
                failIfShort(source);
            }
        }

        private void failIfShort(ByteBuffer source) throws IOException {
            if (source.hasRemaining()) {
                throw new IOException("No space left on device (simulated full disk) writing " + path);
            }
        }

        @Override
        public void force() throws IOException {
            synchronized (mutex) {
                mutate("force " + path);
                if (failingForces.test(path)) {
                    state.forceFailed = true;
                    throw new IOException("Input/output error (simulated failed fsync) on " + path);
                }
                if (state.forceFailed) {
                    return; // the kernel dropped the dirty pages and now reports success: nothing more is durable
                }
                // Durability is what this layer models, so no real fsync is needed (and sweeps stay fast).
                state.durableLength = inner.size();
                state.undo.clear();
            }
        }

        /**
         * Changes nothing a reader or a power loss could see, so it is not a crash point, and
         * after the crash it answers that it cannot; with the disk full it is refused as ENOSPC
         * refuses it: when more is asked than is left. (The budget is not spent: what a real
         * preallocation takes, the writes into it do not.)
         */
        @Override
        public boolean preallocate(long position, long length) throws IOException {
            synchronized (mutex) {
                if (dead || crashed) {
                    return false;
                }
                if (length > diskBudget) {
                    throw new IOException("No space left on device (simulated full disk) preallocating "
                            + length + " bytes at " + position + " of " + path);
                }
                return true;
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            synchronized (mutex) {
                mutate("truncate " + path + " to " + size);
                state.recordOverwrite(path, size, Long.MAX_VALUE / 2);
                inner.truncate(size);
            }
        }

        @Override
        public long size() throws IOException {
            synchronized (mutex) {
                return inner.size();
            }
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }

    private final class FaultReadableFile implements ReadableFile {
        private final Path path;
        private final ReadableFile inner;

        FaultReadableFile(Path path, ReadableFile inner) {
            this.path = path;
            this.inner = inner;
        }

        @Override
        public Path path() {
            return path;
        }

        @Override
        public long size() throws IOException {
            return inner.size();
        }

        @Override
        public void readFully(long position, ByteBuffer destination) throws IOException {
            int start = destination.position();
            int length = destination.remaining();
            inner.readFully(position, destination);
            List<Long> flips;
            synchronized (mutex) {
                flips = bitFlips.get(path);
            }
            if (flips == null) {
                return;
            }
            for (long bit : flips) {
                long at = bit / 8;
                if (at >= position && at < position + length) {
                    int index = start + (int) (at - position);
                    destination.put(index, (byte) (destination.get(index) ^ (1 << (bit % 8))));
                }
            }
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }
}
