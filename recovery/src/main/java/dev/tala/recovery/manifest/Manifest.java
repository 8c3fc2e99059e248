package dev.tala.recovery.manifest;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The MANIFEST being appended to. Each {@link #append} writes one edit and forces it before
 * returning: after that the edit holds across any crash. When the file outgrows its limit it is
 * rewritten as a single snapshot edit (temporary file, force, rename, directory sync), so it
 * stays small and a crash leaves either the old file or the new one.
 */
public final class Manifest implements Closeable {
    /** Rewrite once the file is this large. */
    public static final long DEFAULT_REWRITE_BYTES = 4L * 1024 * 1024;

    private final FileLayer fs;
    private final Path file;
    private final long rewriteBytes;
    private WritableFile out;
    private ManifestState state;
    private long size;
    private long rewrites;
    /** The first write that failed; no edit may follow it (see {@link #append}). */
    private Throwable failed;
    /** Which obsolete segments' files are gone; a rewrite forgets those. */
    private DeletedSegments deletedSegments = DeletedSegments.NONE;

    /** What a rewrite needs to know to forget obsolete segments (FORMAT.md, {@code obsolete_segment}). */
    public interface DeletedSegments {
        DeletedSegments NONE = new DeletedSegments() {
            @Override
            public boolean isDeleted(long id) {
                return false;
            }

            @Override
            public void makeDeletionsDurable() {
            }
        };

        boolean isDeleted(long id);

        /** Syncs the directory the files were deleted from, before the MANIFEST forgets them. */
        void makeDeletionsDurable() throws IOException;
    }

    private Manifest(FileLayer fs, Path file, long rewriteBytes) {
        this.fs = fs;
        this.file = file;
        this.rewriteBytes = rewriteBytes;
    }

    /**
     * Writes a fresh MANIFEST holding {@code state} (replacing any existing one atomically) and
     * opens it for appending. Also how a database starts, and how a torn tail is left behind.
     */
    public static Manifest create(FileLayer fs, Path file, ManifestState state, long rewriteBytes) throws IOException {
        Manifest m = new Manifest(fs, file, rewriteBytes);
        m.rewrite(state);
        return m;
    }

    /**
     * Opens an intact MANIFEST (no torn tail) for appending after its last edit; {@code state} is
     * what its edits replay to.
     */
    public static Manifest append(FileLayer fs, Path file, ManifestState state, long rewriteBytes) throws IOException {
        Manifest m = new Manifest(fs, file, rewriteBytes);
        m.out = fs.openForAppend(file);
        m.size = m.out.size();
        m.state = state;
        return m;
    }

    /**
     * Lets later rewrites forget the obsolete segments whose files are gone. Without it every
     * compaction input ever deleted was carried into every rewrite, until the snapshot alone
     * outgrew the rewrite size and every edit rewrote the whole file. A deletion is made
     * durable before its id is forgotten: a file brought back by a power loss would otherwise
     * be an unlisted segment, moved to lost/ instead of deleted.
     */
    public synchronized void forgetDeletedObsoleteSegments(DeletedSegments deleted) {
        this.deletedSegments = deleted;
    }

    public synchronized ManifestState state() {
        return state;
    }

    /** Times the file was rewritten since opening (for tests and stats). */
    public synchronized long rewrites() {
        return rewrites;
    }

    public synchronized long size() {
        return size;
    }

    /**
     * Appends {@code edit}, forces it, and returns the state with it applied.
     *
     * <p>Once a write has failed, every later append fails too: the file may end in part of the
     * failed edit (or, after a failed force, its pages may never reach the disk while a later
     * edit's do), and an intact edit after damage reads as corruption, not as a torn tail, so
     * the database would not open. The edit is retried by the next open's recovery instead.
     */
    public synchronized ManifestState append(ManifestEdit edit) throws IOException {
        if (failed != null) {
            throw new IOException("no edit may follow a failed write to " + file + " until the database is reopened",
                    failed);
        }
        ManifestState next = state.apply(edit);
        try {
            if (size > rewriteBytes) {
                rewrite(next);
                return next;
            }
            ByteBuffer record = frame(edit);
            out.append(record);
            out.force();
            size += record.capacity();
            state = next;
            return next;
        } catch (IOException | RuntimeException e) {
            failed = e;
            throw e;
        }
    }

    private void rewrite(ManifestState full) throws IOException {
        SortedSet<Long> stillPresent = new TreeSet<>();
        for (long id : full.obsolete()) {
            if (!deletedSegments.isDeleted(id)) {
                stillPresent.add(id);
            }
        }
        if (stillPresent.size() < full.obsolete().size()) {
            deletedSegments.makeDeletionsDurable();
        }
        ManifestState snapshot = full.withObsolete(stillPresent);
        Path tmp = FileLayer.temporaryFor(file);
        ByteBuffer header = ByteBuffer.allocate(ManifestFormat.FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(ManifestFormat.MAGIC).putShort(ManifestFormat.VERSION).putShort((short) 0).flip();
        ByteBuffer body = frame(snapshot.asSnapshotEdit());
        long newSize = header.remaining() + body.remaining();
        WritableFile next = fs.create(tmp);
        try {
            next.append(header);
            next.append(body);
            next.force();
            fs.rename(tmp, file);
            fs.syncDirectory(file.getParent());
        } catch (IOException | RuntimeException e) {
            next.close();
            throw e;
        }
        if (out != null) {
            out.close();
        }
        out = next;
        size = newSize;
        state = snapshot;
        rewrites++;
    }

    private static ByteBuffer frame(ManifestEdit edit) {
        byte[] payload = ManifestCodec.encode(edit);
        ByteBuffer b = ByteBuffer.allocate(ManifestFormat.EDIT_HEADER_BYTES + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(payload.length).putInt(Crc32c.of(payload));
        b.putInt(Crc32c.of(b.array(), 0, 8));
        b.put(payload);
        return b.flip();
    }

    @Override
    public synchronized void close() throws IOException {
        if (out != null) {
            out.close();
            out = null;
        }
    }
}
