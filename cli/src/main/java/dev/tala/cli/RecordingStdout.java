package dev.tala.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Standard output that remembers its first write error. {@link PrintStream} swallows them, so
 * {@code tala export > backup.jsonl} on a full disk wrote nothing and exited 0; a script would
 * have taken the empty file for a backup.
 */
final class RecordingStdout extends OutputStream {
    private final OutputStream out = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    private volatile IOException failure;

    /**
     * Makes a recording stdout {@code System.out}, writing UTF-8, and returns it. UTF-8 whatever
     * the locale: JSON lines are UTF-8 by definition, and under {@code LANG=C} (cron, systemd,
     * containers) the locale's charset turned every non-ASCII character of {@code get --json}
     * into '?', which an import then stored.
     */
    static RecordingStdout install() {
        RecordingStdout recording = new RecordingStdout();
        System.setOut(new PrintStream(recording, true, StandardCharsets.UTF_8));
        return recording;
    }

    /**
     * The first error writing the output, unless the output is a pipe or a socket: the only
     * error there is a reader that stopped early ({@code | head -1}), which got what it wanted.
     */
    IOException failure() {
        IOException e = failure;
        return e == null || readerMayHaveLeft(e) ? null : e;
    }

    private static boolean readerMayHaveLeft(IOException e) {
        try {
            // Linux names what descriptor 1 is; the error's text is in the user's language.
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/1")).toString();
            return target.startsWith("pipe:") || target.startsWith("socket:");
        } catch (IOException | UnsupportedOperationException noProc) {
            return String.valueOf(e.getMessage()).contains("Broken pipe");
        }
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
