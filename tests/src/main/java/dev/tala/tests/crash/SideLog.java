package dev.tala.tests.crash;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The crash-test child's record of its writes, outside the database: "B thread index" before
 * a write is sent, "A thread index" (forced) after it is acknowledged. The supervisor reads it
 * after the kill to learn which writes were promised and which were in flight.
 */
public final class SideLog implements Closeable {
    private final FileChannel out;

    public SideLog(Path file) throws IOException {
        this.out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    public synchronized void begin(int thread, int index) throws IOException {
        write("B " + thread + " " + index + "\n");
    }

    public synchronized void acknowledged(int thread, int index) throws IOException {
        write("A " + thread + " " + index + "\n");
        out.force(false);
    }

    private void write(String line) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
        while (b.hasRemaining()) {
            out.write(b);
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /** Per thread: the indices begun and the indices acknowledged. */
    public record Entries(Map<Integer, TreeSet<Integer>> begun, Map<Integer, TreeSet<Integer>> acknowledged) {
    }

    /** Parses a side log; a line cut short by the kill is ignored. */
    public static Entries read(Path file) throws IOException {
        Map<Integer, TreeSet<Integer>> begun = new HashMap<>();
        Map<Integer, TreeSet<Integer>> acked = new HashMap<>();
        if (!Files.exists(file)) {
            return new Entries(begun, acked);
        }
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        int end = text.lastIndexOf('\n') + 1;
        List<String> lines = text.substring(0, end).lines().toList();
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f.length != 3) {
                continue;
            }
            int thread = Integer.parseInt(f[1]);
            int index = Integer.parseInt(f[2]);
            (f[0].equals("A") ? acked : begun).computeIfAbsent(thread, k -> new TreeSet<>()).add(index);
        }
        return new Entries(begun, acked);
    }
}
