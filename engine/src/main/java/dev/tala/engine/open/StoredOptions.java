package dev.tala.engine.open;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.engine.Options;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;
import java.util.function.Function;

/**
 * The options a database was created with, as written in DIR/OPTIONS: a small text file an
 * operator can read, written once, atomically.
 */
public record StoredOptions(int dimension, EmbeddingType embeddingType, long memtableBytes, Durability durability) {
    static final int FORMAT = 1;

    public void write(FileLayer fs, Path file) throws IOException {
        String text = "# TalaDB database options, fixed when the database was created\n"
                + "format=" + FORMAT + "\n"
                + "dimension=" + dimension + "\n"
                + "dtype=" + embeddingType.label() + "\n"
                + "memtable_bytes=" + memtableBytes + "\n"
                + "durability=" + durability + "\n";
        fs.writeAtomically(file, text.getBytes(StandardCharsets.UTF_8));
    }

    public static StoredOptions read(FileLayer fs, Path file) throws IOException {
        String name = file.toString();
        Properties p = new Properties();
        p.load(new StringReader(new String(fs.readAllBytes(file), StandardCharsets.UTF_8)));
        String format = p.getProperty("format");
        if (format == null) {
            throw new CorruptionException(name, 0, "no format line: not a TalaDB OPTIONS file");
        }
        if (!format.trim().equals(Integer.toString(FORMAT))) {
            throw new CorruptionException(name, 0, "OPTIONS format " + format + " is not supported");
        }
        int dimension = field(name, p, "dimension", v -> Options.checkDimension(Integer.parseInt(v)));
        EmbeddingType type = field(name, p, "dtype", StoredOptions::parseType);
        // Databases made before the 1 GiB cap may store more; they open with the cap instead.
        long memtable = field(name, p, "memtable_bytes",
                v -> Options.checkMemtableBytes(Math.min(Long.parseLong(v), Options.MAX_MEMTABLE_BYTES)));
        Durability durability = field(name, p, "durability", Durability::parse);
        return new StoredOptions(dimension, type, memtable, durability);
    }

    /**
     * Parses and checks one line, with the rules a new database's options follow: a hand-edited
     * OPTIONS file must not open a database that a builder would refuse (a memtable of 0 bytes
     * would switch memtables, and start WAL files, without end).
     */
    private static <T> T field(String file, Properties p, String key, Function<String, T> parse) {
        String value = required(p, key, file).trim();
        try {
            return parse.apply(value);
        } catch (NumberFormatException e) {
            throw new CorruptionException(file, 0, key + "=" + value + ": not a whole number");
        } catch (IllegalArgumentException e) {
            throw new CorruptionException(file, 0, key + "=" + value + ": " + e.getMessage());
        }
    }

    private static String required(Properties p, String key, String file) {
        String v = p.getProperty(key);
        if (v == null) {
            throw new CorruptionException(file, 0, "missing \"" + key + "\"");
        }
        return v;
    }

    /** Parses f32, f16, bf16 or int8; {@code where} (an option's name) starts the error. */
    public static EmbeddingType parseType(String label, String where) {
        try {
            return parseType(label);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    private static EmbeddingType parseType(String label) {
        for (EmbeddingType t : EmbeddingType.values()) {
            if (t.label().equals(label)) {
                return t;
            }
        }
        throw new IllegalArgumentException("embedding type \"" + label + "\" is not f32, f16, bf16 or int8");
    }
}
