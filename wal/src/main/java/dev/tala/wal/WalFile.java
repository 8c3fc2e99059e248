package dev.tala.wal;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/** One WAL file being written: its header is durable, and so is its name, before any record. */
final class WalFile implements Closeable {
    private final long number;
    private final WritableFile out;

    private WalFile(long number, WritableFile out) {
        this.number = number;
        this.out = out;
    }

    /** Creates {@code walDir/<number>.wal}, writes and forces its header, and syncs the directory. */
    static WalFile create(FileLayer fs, Path walDir, long number) throws IOException {
        Path path = walDir.resolve(DatabaseLayout.walFileName(number));
        WritableFile out = fs.create(path);
        try {
            out.append(header(number));
            out.force();
            fs.syncDirectory(walDir);
            return new WalFile(number, out);
        } catch (IOException | RuntimeException e) {
            out.close();
            throw e;
        }
    }

    static ByteBuffer header(long number) {
        ByteBuffer h = ByteBuffer.allocate(WalFormat.FILE_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        h.put(WalFormat.MAGIC).putShort(WalFormat.VERSION).putShort((short) 0).putLong(number);
        return h.flip();
    }

    long number() {
        return number;
    }

    Path path() {
        return out.path();
    }

    void append(ByteBuffer bytes) throws IOException {
        out.append(bytes);
    }

    void force() throws IOException {
        out.force();
    }

    long size() throws IOException {
        return out.size();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
