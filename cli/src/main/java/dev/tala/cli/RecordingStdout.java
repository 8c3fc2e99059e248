package dev.tala.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard output that remembers its first write error. {@link PrintStream} swallows them, so
 * {@code tala export > backup.jsonl} on a full disk wrote nothing and exited 0; a script would
 * have taken the empty file for a backup.
 */
final class RecordingStdout extends OutputStream {
    private final OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    private volatile IOException failure;

    /** Makes a recording stdout {@code System.out}, in the charset it had, and returns it. */
    static RecordingStdout install() {
        RecordingStdout recording = new RecordingStdout();
        System.setOut(new PrintStream(recording, true, System.out.charset()));
        return recording;
    }

    /**
     * The first error writing the output, unless it is a broken pipe: a reader that stopped
     * early ({@code | head -1}) got what it wanted.
     */
    IOException failure() {
        IOException e = failure;
        return e == null || String.valueOf(e.getMessage()).contains("Broken pipe") ? null : e;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }
}
