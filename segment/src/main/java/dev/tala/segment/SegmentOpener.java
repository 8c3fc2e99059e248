package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.UnsupportedFormatException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * The checks shared by a full open and a summary read: header, open policy (encrypted, partial),
 * trailer, footer and directory. Works on any source of byte ranges, so a summary read needs
 * only a few small positional reads.
 */
final class SegmentOpener {
    private SegmentOpener() {
    }

    /** Positional access to the file's bytes. */
    interface ByteSource {
        long size() throws IOException;

        MemorySegment read(long offset, long length) throws IOException;
    }

    record Opened(SegmentHeader header, Footer footer, RegionDirectory directory, long footerOffset, long fileSize) {
    }

    static Opened open(ByteSource source, String file, Set<SegmentOpenOption> options) throws IOException {
        long size = source.size();
        if (size < HEADER_BYTES + TRAILER_BYTES) {
            throw new CorruptionException(file, 0, "file has " + size + " bytes, shorter than a header and trailer ("
                    + (HEADER_BYTES + TRAILER_BYTES) + ")");
        }
        SegmentHeader header = SegmentHeader.decode(source.read(0, HEADER_BYTES), file);
        applyPolicy(header, file, options);
        MemorySegment trailer = source.read(size - TRAILER_BYTES, TRAILER_BYTES);
        if (trailer.get(U32, T_MAGIC) != MAGIC_LE) {
            throw new CorruptionException(file, size - TRAILER_BYTES + T_MAGIC,
                    "trailer magic missing: the file is truncated or was not completely written");
        }
        long footerLength = Integer.toUnsignedLong(trailer.get(U32, T_FOOTER_LENGTH));
        long footerOffset = size - TRAILER_BYTES - footerLength;
        if (footerOffset != header.footerOffset()) {
            throw new CorruptionException(file, size - TRAILER_BYTES + T_FOOTER_LENGTH, "trailer footer_length "
                    + footerLength + " puts the footer at " + footerOffset + " but the header says "
                    + header.footerOffset() + " (file size " + size + ")");
        }
        if (footerLength > Footer.lengthFor(FOOTER_MAX_REGIONS)) {
            throw new CorruptionException(file, size - TRAILER_BYTES + T_FOOTER_LENGTH, "trailer footer_length "
                    + footerLength + " exceeds the largest possible footer");
        }
        Footer footer = Footer.decode(source.read(footerOffset, footerLength), footerOffset, file);
        RegionDirectory directory = RegionDirectory.validate(header, footer, footerOffset, file);
        return new Opened(header, footer, directory, footerOffset, size);
    }

    /** Encrypted segments cannot be read; partial ones only on request. */
    static void applyPolicy(SegmentHeader header, String file, Set<SegmentOpenOption> options) {
        if (header.isEncrypted()) {
            throw new UnsupportedFormatException(file, "encrypted segments are not supported");
        }
        if (header.isPartial() && !options.contains(SegmentOpenOption.ALLOW_PARTIAL)) {
            throw new CorruptionException(file, H_FLAGS,
                    "segment is partial (is_partial is set): it was never completely written");
        }
    }
}
