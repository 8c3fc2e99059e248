package dev.tala.segment.docformat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentWriteOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FORMAT.md: "the zstd frame must declare its content size ... (a frame without the size is refused as corrupt)". */
class ZstdStringTableClaimsTest {
    @TempDir
    Path dir;

    /** The segment with its zstd string table replaced by {@code frame}, directory and footer CRC kept right. */
    private Path withFrame(DocTbf base, java.util.function.Function<byte[], byte[]> frameOf) throws Exception {
        DocTbf f = new DocTbf(base.bytes.clone());
        long e = f.entryOfKind(16);
        int off = (int) f.u64(e + 8);
        int stored = (int) f.u64(e + 16);
        byte[] raw = Zstd.decompress(Arrays.copyOfRange(f.bytes, off, off + stored), (int) f.u64(e + 24));
        byte[] frame = frameOf.apply(raw);
        long next = DocTbf.align64(off + stored);
        // Only a frame that fits before the next region keeps every other offset valid.
        assertEquals(true, off + frame.length <= next, "frame fits");
        Arrays.fill(f.bytes, off, (int) next, (byte) 0);
        System.arraycopy(frame, 0, f.bytes, off, frame.length);
        f.le.putLong((int) e + 16, frame.length);
        f.le.putInt((int) e + 4, DocTbf.crc32c(f.bytes, off, off + frame.length));
        f.resealFooter();
        Path p = dir.resolve("frame-" + System.nanoTime() + ".tbf");
        Files.write(p, f.bytes);
        return p;
    }

    @Test
    void aFrameWithoutItsContentSizeIsCorruptAndOneWithItReads() throws Exception {
        WrittenSegment s = WrittenSegment.write(dir, "zstd", SegmentWriteOptions.of(1, 0, 4, EmbeddingType.F32),
                WrittenSegment.randomRows(21, 40, 4, 0, true, false));
        assertEquals(2, s.file().u8(45), "the base segment has a zstd string table");
        Path sized = withFrame(s.file(), raw -> {
            try (ZstdCompressCtx c = new ZstdCompressCtx()) {
                return c.setLevel(1).setContentSize(true).compress(raw);
            }
        });
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, sized)) {
            assertEquals(s.versions().getFirst().intent().command(), r.command(0));
        }
        Path unsized = withFrame(s.file(), raw -> {
            try (ZstdCompressCtx c = new ZstdCompressCtx()) {
                return c.setLevel(1).setContentSize(false).compress(raw);
            }
        });
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, unsized)) {
            assertThrows(CorruptionException.class, () -> r.command(0));
        }
    }
}
