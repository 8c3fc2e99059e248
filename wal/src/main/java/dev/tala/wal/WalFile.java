package dev.tala.wal;

import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One WAL file being written: its header is durable, and so is its name, before any record.
 * Records are written at the file's own position rather than appended, because a reused file
 * is already as long as it was in its previous life and its records overwrite zeros.
 *
 * <p>When asked to, a file preallocates its disk blocks 8 MiB at a time past the end of what it
 * already has ({@link WritableFile#preallocate}, which changes neither length nor contents):
 * appends into a growing file then cost the file system less. A log that forces every write
 * does not ask: on ext4 a force then also converts the preallocated extent it wrote into, and
 * took 7–10% longer (see docs/PERFORMANCE.md, stop 24). A refused preallocation is not an error
 * of the log; the file stops preallocating, and a disk that is really full fails the write
 * that follows.
 */
final class WalFile implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(WalFile.class);
    /** How far ahead of the writes a growing file's blocks are preallocated, in steps of this size. */
    static final long PREALLOCATION_BYTES = 8 << 20;

    private final long number;
    private final WritableFile out;
    private long position = WalFormat.FILE_HEADER_BYTES;
    /** Below this offset the file has its blocks: its length when opened, or what was preallocated. */
    private long preallocatedTo;
    private boolean preallocating;
    /** Where each {@link WalWriteback#STEP_BYTES} written are handed; null for none (SYNC). */
    private final WalWriteback writeback;
    /** Where the bytes not yet handed to {@link #writeback} start. */
    private long writebackFrom = WalFormat.FILE_HEADER_BYTES;

    private WalFile(long number, WritableFile out, boolean preallocate, WalWriteback writeback) throws IOException {
        this.number = number;
        this.out = out;
        this.preallocatedTo = Math.max(position, out.size());
        this.preallocating = preallocate;
        this.writeback = writeback;
    }

    /**
     * Creates {@code walDir/<number>.wal}, writes and forces its header, and syncs the directory.
     * With {@code preallocate}, blocks are preallocated ahead of the writes; with a
     * {@code writeback} (null for none), each {@link WalWriteback#STEP_BYTES} written is handed
     * to it.
     */
    static WalFile create(FileLayer fs, Path walDir, long number, boolean preallocate, WalWriteback writeback)
            throws IOException {
        Path path = walDir.resolve(DatabaseLayout.walFileName(number));
        WritableFile out = fs.create(path);
        try {
            return start(fs, walDir, number, out, (byte) 0, preallocate, writeback);
        } catch (IOException | RuntimeException e) {
            // Its header never made it (a full disk, most often): leave no header-less file for
            // the next open to take for "a write torn by the crash", one per failed open.
            try {
                fs.delete(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Turns {@code free}, a file holding only zeros whose zeros are durable (see
     * {@link WalRecycler}), into {@code walDir/<number>.wal}: renamed first, then its header
     * written over the zeros and forced, then the directory synced. A crash before the header
     * is durable leaves a newest WAL file that is all zeros, which replay drops like any
     * half-created file.
     */
    static WalFile reuse(FileLayer fs, Path walDir, Path free, long number, boolean preallocate,
            WalWriteback writeback) throws IOException {
        Path path = walDir.resolve(DatabaseLayout.walFileName(number));
        fs.rename(free, path);
        return start(fs, walDir, number, fs.openForAppend(path), WalFormat.FLAG_ZERO_FILLED, preallocate, writeback);
    }

    private static WalFile start(FileLayer fs, Path walDir, long number, WritableFile out, byte flags,
            boolean preallocate, WalWriteback writeback) throws IOException {
        try {
            out.write(0, header(number, flags));
            out.force();
            fs.syncDirectory(walDir);
            return new WalFile(number, out, preallocate, writeback);
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    static ByteBuffer header(long number) {
        return header(number, (byte) 0);
    }

    static ByteBuffer header(long number, byte flags) {
        ByteBuffer h = ByteBuffer.allocate(WalFormat.FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.put(WalFormat.MAGIC).putShort(WalFormat.VERSION).put(flags).put(flags).putLong(number);
        return h.flip();
    }

    long number() {
        return number;
    }

    /** True while nothing but the header was written. */
    boolean holdsNoRecords() {
        return position == WalFormat.FILE_HEADER_BYTES;
    }

    Path path() {
        return out.path();
    }

    void append(ByteBuffer bytes) throws IOException {
        long end = position + bytes.remaining();
        if (end > preallocatedTo && preallocating) {
            preallocateThrough(end);
        }
        out.write(position, bytes);
        position = end;
        if (writeback != null && position - writebackFrom >= WalWriteback.STEP_BYTES) {
            writeback.request(out.path(), writebackFrom, position);
            writebackFrom = position;
        }
    }

    /** Preallocates from {@link #preallocatedTo} to the first step boundary at or past {@code end}. */
    private void preallocateThrough(long end) {
        long to = Math.ceilDiv(end, PREALLOCATION_BYTES) * PREALLOCATION_BYTES;
        try {
            if (out.preallocate(preallocatedTo, to - preallocatedTo)) {
                preallocatedTo = to;
            } else {
                preallocating = false;
            }
        } catch (IOException | RuntimeException e) {
            preallocating = false;
            LOG.warn("could not preallocate WAL file {} ({}); writing on without preallocating it", out.path(),
                    LoggedErrors.describe(e), LoggedErrors.traceOf(e));
        }
    }

    void force() throws IOException {
        out.force();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
