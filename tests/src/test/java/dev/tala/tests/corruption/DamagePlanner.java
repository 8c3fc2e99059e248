package dev.tala.tests.corruption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * Chooses damage from a case seed, so that a failing case is reproduced from its seed alone
 * (with the same base seed). Offsets and lengths are uniform over the whole file.
 */
final class DamagePlanner {
    private DamagePlanner() {
    }

    /** A random flip or truncation of a random candidate file of {@code kind}. */
    static Damage random(FileKind kind, Damage.Mode mode, BaseDatabase base, long seed) {
        Random random = new Random(seed);
        List<Path> candidates = kind.candidates(base);
        Path file = candidates.get(random.nextInt(candidates.size()));
        byte[] bytes = read(file);
        long offset = random.nextLong(bytes.length); // a truncation keeps [0, offset): always shorter
        int bit = random.nextInt(8);
        return describe(kind, mode, base, file, bytes, offset, bit, seed);
    }

    /** A truncation of {@code kind}'s file to exactly {@code length} bytes. */
    static Damage truncation(FileKind kind, BaseDatabase base, long length) {
        Path file = kind.candidates(base).getFirst();
        return describe(kind, Damage.Mode.TRUNCATE, base, file, read(file), length, 0, length);
    }

    /** A flip of {@code bit} of byte {@code offset} of {@code kind}'s (first) file. */
    static Damage flip(FileKind kind, BaseDatabase base, long offset, int bit) {
        Path file = kind.candidates(base).getFirst();
        return describe(kind, Damage.Mode.FLIP, base, file, read(file), offset, bit, offset * 8 + bit);
    }

    /** The parsed layout of a WAL or MANIFEST file of {@code kind}. */
    static LogLayout layout(FileKind kind, byte[] bytes) {
        return switch (kind) {
            case NEWEST_WAL, OLDER_WAL -> LogLayout.wal(bytes);
            case MANIFEST -> LogLayout.manifest(bytes);
            case SEGMENT -> throw new IllegalArgumentException("segments are not logs");
        };
    }

    private static Damage describe(FileKind kind, Damage.Mode mode, BaseDatabase base, Path file, byte[] bytes,
                                   long offset, int bit, long seed) {
        Location where;
        boolean boundary = false;
        if (kind == FileKind.SEGMENT) {
            where = SegmentMap.locate(bytes, offset);
        } else {
            LogLayout layout = layout(kind, bytes);
            where = layout.locate(offset);
            boundary = mode == Damage.Mode.TRUNCATE && layout.isBoundary(offset);
        }
        if (mode == Damage.Mode.TRUNCATE) {
            where = new Location(boundary ? "at an entry boundary" : "inside the " + where.part(), where.detail());
        }
        return new Damage(kind, mode, base.dir().relativize(file), bytes.length, offset, bit, where, boundary, seed);
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
