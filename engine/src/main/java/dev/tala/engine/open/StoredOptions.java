package dev.tala.engine.open;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.model.IntentLimits;
import dev.tala.engine.Options;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The options a database was created with, as written in DIR/OPTIONS: a small text file an
 * operator can read, written once, atomically.
 */
public record StoredOptions(int dimension, EmbeddingType embeddingType, long memtableBytes, Durability durability) {
    static final int FORMAT = 1;
    /**
     * Far above the five short lines (and any comments) an OPTIONS file holds; a larger file is
     * refused before it is read, which a gigabyte-sized one would otherwise exhaust the heap on.
     */
    static final int MAX_BYTES = 64 * 1024;
    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final Set<String> KEYS = Set.of("format", "dimension", "dtype", "memtable_bytes", "durability");

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
        long size = fs.size(file);
        if (size > MAX_BYTES) {
            throw new CorruptionException(name, MAX_BYTES, "the file is " + size + " bytes; an OPTIONS file is a few"
                    + " short lines, at most " + MAX_BYTES + " bytes");
        }
        byte[] bytes = fs.readAllBytes(file);
        Map<String, Line> lines = new HashMap<>();
        CorruptionException stray = readLines(name, bytes, lines);
        Line format = lines.get("format");
        if (format == null) {
            throw new CorruptionException(name, 0, "no format line: not a TalaDB OPTIONS file");
        }
        if (bytes[bytes.length - 1] != '\n') {
            // Every line written ends with one: a file cut inside its last line could otherwise
            // open with another value (batch:2500 cut to batch:250).
            throw new CorruptionException(name, bytes.length, "the last line has no newline: the file is cut short"
                    + " (if that line is whole, as after an edit that left the newline out, add it)");
        }
        if (stray != null) {
            throw stray;
        }
        if (!format.value().equals(Integer.toString(FORMAT))) {
            throw format.error(name, "OPTIONS format " + format.value() + " is not supported");
        }
        int dimension = field(name, bytes.length, lines, "dimension", StoredOptions::dimension);
        EmbeddingType type = field(name, bytes.length, lines, "dtype", StoredOptions::parseType);
        long memtable = field(name, bytes.length, lines, "memtable_bytes", StoredOptions::memtableBytes);
        Durability durability = field(name, bytes.length, lines, "durability", Durability::parse);
        return new StoredOptions(dimension, type, memtable, durability);
    }

    /** One {@code key=value} line: its number from 1, the offset of its first byte, its value trimmed. */
    private record Line(int number, long offset, String key, String value) {
        CorruptionException error(String file, String what) {
            return new CorruptionException(file, offset, "line " + number + ": " + what);
        }
    }

    /**
     * Puts the file's {@code key=value} lines into {@code lines} by key, and returns the first
     * line that is not one known key given once, or null. Blank lines and lines starting with
     * {@code #} are skipped.
     */
    private static CorruptionException readLines(String file, byte[] bytes, Map<String, Line> lines) {
        CorruptionException stray = null;
        // A byte order mark some editors put first is not part of the first line.
        int start = bytes.length >= UTF8_BOM.length && Arrays.equals(bytes, 0, UTF8_BOM.length, UTF8_BOM, 0,
                UTF8_BOM.length) ? UTF8_BOM.length : 0;
        for (int number = 1; start < bytes.length; number++) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            String text = new String(bytes, start, end - start, StandardCharsets.UTF_8).strip();
            if (!text.isEmpty() && !text.startsWith("#")) {
                int eq = text.indexOf('=');
                String key = eq < 0 ? "" : text.substring(0, eq).strip();
                Line line = new Line(number, start, key, eq < 0 ? "" : text.substring(eq + 1).strip());
                CorruptionException problem;
                if (eq < 0) {
                    problem = line.error(file, "expected key=value, got \"" + text + "\"");
                } else if (!KEYS.contains(key)) {
                    problem = line.error(file, "unknown option \"" + key + "\"");
                } else {
                    Line first = lines.putIfAbsent(key, line);
                    problem = first == null ? null
                            : line.error(file, "\"" + key + "\" is given twice (first on line " + first.number() + ")");
                }
                stray = stray == null ? problem : stray;
            }
            start = end + 1;
        }
        return stray;
    }

    /**
     * Parses and checks one line, with the rules a new database's options follow: a hand-edited
     * OPTIONS file must not open a database that a builder would refuse (a memtable of 0 bytes
     * would switch memtables, and start WAL files, without end).
     */
    private static <T> T field(String file, long length, Map<String, Line> lines, String key,
                               Function<String, T> parse) {
        Line line = lines.get(key);
        if (line == null) {
            throw new CorruptionException(file, length, "missing \"" + key + "\"");
        }
        String value = line.value();
        try {
            return parse.apply(value);
        } catch (NumberFormatException e) {
            throw line.error(file, key + "=" + value + ": not a whole number");
        } catch (IllegalArgumentException e) {
            throw line.error(file, key + "=" + value + ": " + e.getMessage());
        }
    }

    /**
     * Decimal ASCII digits only: BigInteger also takes other scripts' digits ("dimension=٨"
     * read as 8), which no tool writing OPTIONS means.
     */
    private static BigInteger wholeNumber(String value) {
        if (!value.matches("-?[0-9]+")) {
            throw new NumberFormatException(value);
        }
        return new BigInteger(value);
    }

    /** A stored dimension; one past the range of an int is out of range, not "not a number". */
    private static int dimension(String value) {
        BigInteger d = wholeNumber(value);
        if (d.bitLength() > 31) {
            throw new IllegalArgumentException("dimension must be 1 to " + IntentLimits.MAX_DIMENSION);
        }
        return Options.checkDimension(d.intValue());
    }

    /** A stored memtable size. Databases made before the 1 GiB cap may store more; they open with the cap. */
    private static long memtableBytes(String value) {
        BigInteger b = wholeNumber(value);
        if (b.compareTo(BigInteger.valueOf(Options.MAX_MEMTABLE_BYTES)) > 0) {
            return Options.MAX_MEMTABLE_BYTES;
        }
        if (b.bitLength() > 63) {
            throw new IllegalArgumentException("memtable size must be at least " + Options.MIN_MEMTABLE_BYTES);
        }
        return Options.checkMemtableBytes(b.longValue());
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
