package dev.tala.tests.corruption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One piece of damage to one file of a database copy: a single flipped bit, or a truncation.
 *
 * @param file         the damaged file, relative to the database directory
 * @param originalSize the file's size before the damage
 * @param offset       the flipped byte, or the length the file is cut to
 * @param bit          the flipped bit (0 to 7); unused for a truncation
 * @param where        what lies at {@code offset} in the undamaged file
 * @param atBoundary   a truncation that leaves only whole WAL records or MANIFEST edits
 * @param seed         the case seed that chose this damage (printed to reproduce a failure)
 */
record Damage(FileKind kind, Mode mode, Path file, long originalSize, long offset, int bit, Location where,
              boolean atBoundary, long seed) {
    enum Mode {
        FLIP, TRUNCATE;

        String label() {
            return this == FLIP ? "bit flip" : "truncation";
        }
    }

    /** A truncation to the file's own length: the harness's control case, which damages nothing. */
    boolean isNoOp() {
        return mode == Mode.TRUNCATE && offset == originalSize;
    }

    String fileName() {
        return file.getFileName().toString();
    }

    void applyTo(Path dir) {
        Path target = dir.resolve(file);
        try (FileChannel ch = FileChannel.open(target, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (mode == Mode.TRUNCATE) {
                ch.truncate(offset);
            } else {
                ByteBuffer b = ByteBuffer.allocate(1);
                ch.read(b, offset);
                b.put(0, (byte) (b.get(0) ^ (1 << bit)));
                ch.write(b.rewind(), offset);
            }
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        String what = mode == Mode.FLIP ? "flip of bit " + bit + " at offset " + offset
                : "truncation to " + offset + " bytes" + (atBoundary ? " (an entry boundary)" : "");
        return kind.label() + " " + what + " of " + file + " (" + originalSize + " bytes; " + where.detail() + "), case seed "
                + seed;
    }
}
