package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Status;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zstd string table that passes its checksum (recomputed over the damage: a collision or a
 * hostile file) but does not decompress, or declares another size, is a CorruptionException on
 * every read path, and one finding of verifyAll. zstd-jni throws ZstdException instead of
 * returning an error code, which escaped every reader and stopped tala verify with "internal
 * error". A raw_length far past what the rows could hold is refused before it is allocated.
 */
class DamagedStringTableTest {
    @TempDir
    Path dir;
    byte[] original;
    Path damaged;

    @BeforeEach
    void write() throws IOException {
        List<IntentVersion> versions = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Intent intent = Intent.builder()
                    .id(IntentId.of(1, i + 1))
                    .timestampNs(1_000 + i)
                    .confidence(0.5f)
                    .status(Status.SUCCESS)
                    .command("kubectl rollout restart deployment/web-frontend --namespace production " + i)
                    .embedding(new float[] {1, 2, 3, 4})
                    .build();
            versions.add(IntentVersion.put(10 + i, intent));
        }
        Path file = dir.resolve("zstd.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE).write(file, SegmentWriteOptions.of(1, 1, 4, EmbeddingType.F32), versions);
        original = Files.readAllBytes(file);
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, file)) {
            assertEquals(ENCODING_ZSTD, r.directory().entry(RegionKind.STRING_TABLE).encoding(), "table is compressed");
            r.verify();
        }
        damaged = dir.resolve("damaged.tbf");
    }

    private void assertRefused(byte[] bytes) throws IOException {
        Files.write(damaged, bytes);
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, damaged)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> r.command(0));
            assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
            assertThrows(CorruptionException.class, r::verify);
            assertTrue(r.verifyAll().stream().anyMatch(p -> p.what().contains("string table")));
        }
    }

    /** A byte inside the compressed frame changed, and the region CRC32C recomputed to match. */
    @Test
    void aFrameThatDoesNotDecompressIsCorruption() throws IOException {
        TbfEdit t = new TbfEdit(original);
        long at = t.offset(RegionKind.STRING_TABLE);
        long len = t.length(RegionKind.STRING_TABLE);
        t.b[(int) (at + len / 2)] ^= 0x5A;
        t.fixRegion(RegionKind.STRING_TABLE);
        assertRefused(t.b);
    }

    /** raw_length one below the real size (footer CRC recomputed): the frame no longer fits. */
    @Test
    void aRawLengthTooSmallIsCorruption() throws IOException {
        TbfEdit t = new TbfEdit(original);
        long entry = t.entryAt(RegionKind.STRING_TABLE);
        t.s.set(U64, entry + E_RAW_LENGTH, t.s.get(U64, entry + E_RAW_LENGTH) - 1);
        t.fixFooter();
        assertRefused(t.b);
    }

    /** verifyAll() promises one CorruptionException per problem; here it throws instead. */
    @Test
    void verifyAllReportsAFrameThatDoesNotDecompress() throws IOException {
        TbfEdit t = new TbfEdit(original);
        long at = t.offset(RegionKind.STRING_TABLE);
        t.b[(int) (at + t.length(RegionKind.STRING_TABLE) / 2)] ^= 0x5A;
        t.fixRegion(RegionKind.STRING_TABLE);
        Files.write(damaged, t.b);
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, damaged)) {
            List<CorruptionException> problems = r.verifyAll();
            assertTrue(problems.stream().anyMatch(p -> p.what().contains("string table")), problems.toString());
        }
    }

    /** Child process: opens the segment, reads a command, prints what happened. */
    public static void main(String[] args) throws IOException {
        try (SegmentReader r = SegmentReader.open(LocalFileLayer.INSTANCE, Path.of(args[0]))) {
            r.command(0);
            System.out.println("READ OK");
        } catch (Throwable t) {
            System.out.println("THREW " + t);
        }
    }

    /**
     * 8 puts and 32,760 tombstones declaring a 2 GiB table: the cap counted tombstones (which
     * store empty strings), and a child JVM with a 1 GiB heap got an OutOfMemoryError.
     */
    @Test
    void aHostileRawLengthIsRefusedBeforeItIsAllocated() throws Exception {
        int n = 32_768;
        List<IntentVersion> versions = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IntentId id = IntentId.of(1, i + 1);
            if (i < 8) {
                versions.add(IntentVersion.put(i + 1, Intent.builder().id(id).timestampNs(1).confidence(1f)
                        .status(Status.SUCCESS).command("x".repeat(1000) + i).embedding(new float[] {1}).build()));
            } else {
                versions.add(IntentVersion.tombstone(id, i + 1));
            }
        }
        Path file = dir.resolve("s.tbf");
        new SegmentWriter(LocalFileLayer.INSTANCE).write(file, SegmentWriteOptions.of(1, 1, 1, EmbeddingType.F32)
                .withSync(false), versions);
        TbfEdit t = new TbfEdit(Files.readAllBytes(file));
        long entry = t.entryAt(RegionKind.STRING_TABLE);
        assertEquals(ENCODING_ZSTD, Byte.toUnsignedInt(t.s.get(U8, entry + E_ENCODING)));
        long limit = Math.min(Integer.MAX_VALUE - 64L, (long) n * ST_MAX_STRING_BYTES + 4L * (n + 2));
        t.s.set(U64, entry + E_RAW_LENGTH, limit);
        t.fixFooter();
        Files.write(file, t.b);
        System.out.println("segment of " + t.b.length + " bytes declares a string table of " + limit + " bytes");

        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                DamagedStringTableTest.class.getName(), file.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        System.out.println("child: " + out);
        assertTrue(out.contains("THREW dev.tala.core.error.CorruptionException"), out);
    }
}
