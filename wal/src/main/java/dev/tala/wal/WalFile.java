package dev.tala.wal;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * One WAL file being written: its header is durable, and so is its name, before any record.
 * Records are written at the file's own position rather than appended, because a reused file
 * is already as long as it was in its previous life and its records overwrite zeros.
 */
final class WalFile implements Closeable {
    private final long number;
    private final WritableFile out;
    private long position = WalFormat.FILE_HEADER_BYTES;

    private WalFile(long number, WritableFile out) {
        this.number = number;
        this.out = out;
    }

    /** Creates {@code walDir/<number>.wal}, writes and forces its header, and syncs the directory. */
    static WalFile create(FileLayer fs, Path walDir, long number) throws IOException {
        Path path = walDir.resolve(DatabaseLayout.walFileName(number));
        return start(fs, walDir, number, fs.create(path), (byte) 0);
    }

    /**
     * Turns {@code free}, a file holding only zeros whose zeros are durable (see
     * {@link WalRecycler}), into {@code walDir/<number>.wal}: renamed first, then its header
     * written over the zeros and forced, then the directory synced. A crash before the header
     * is durable leaves a newest WAL file that is all zeros, which replay drops like any
     * half-created file.
     */
    static WalFile reuse(FileLayer fs, Path walDir, Path free, long number) throws IOException {
        Path path = walDir.resolve(DatabaseLayout.walFileName(number));
        fs.rename(free, path);
        return start(fs, walDir, number, fs.openForAppend(path), WalFormat.FLAG_ZERO_FILLED);
    }

    private static WalFile start(FileLayer fs, Path walDir, long number, WritableFile out, byte flags)
            throws IOException {
        try {
            out.write(0, header(number, flags));
            out.force();
            fs.syncDirectory(walDir);
            return new WalFile(number, out);
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

    Path path() {
        return out.path();
    }

    void append(ByteBuffer bytes) throws IOException {
        int length = bytes.remaining();
        out.write(position, bytes);
        position += length;
    }

    void force() throws IOException {
        out.force();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
