package dev.tala.segment.docformat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentVersion;
import dev.tala.segment.EmbeddingType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decodes segments made by the public writer with nothing but docs/FORMAT.md ("TBF segments"),
 * field by field. The golden file pins one tiny segment; these pin the rules on shapes it does
 * not have (other dtypes, no CSC, zstd, compaction, many rows, no rows).
 */
class TbfWriterMatchesFormatDocTest {
    @TempDir
    Path dir;

    private static int dtypeCode(EmbeddingType t) {
        return switch (t) {
            case F32 -> 0;
            case F16 -> 1;
            case BF16 -> 2;
            case INT8 -> 3;
        };
    }

    private static long stride(EmbeddingType t, int dim) {
        return DocTbf.align64(switch (t) {
            case F32 -> 4L * dim;
            case F16, BF16 -> 2L * dim;
            case INT8 -> 8L + dim;
        });
    }

    @Test
    void headerFieldsAreWhereTheDocPutsThem() throws Exception {
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            DocExpectations x = new DocExpectations(s.versions());
            String at = s.name() + ": ";
            assertArrayEquals(new byte[] {0x54, 0x41, 0x4C, 0x42}, Arrays.copyOf(f.bytes, 4), at + "magic");
            assertEquals(1, f.u16(4), at + "version_major");
            assertEquals(0, f.u16(6), at + "version_minor");
            assertEquals(s.options().segmentId(), f.u64(8), at + "segment_id");
            assertEquals(s.options().createdAtNs(), f.u64(16), at + "created_at");
            assertEquals(x.n, f.u64(24), at + "node_count");
            assertEquals(x.e, f.u64(32), at + "edge_count");
            assertEquals(s.options().dimension(), f.u32(40), at + "embedding_dim");
            assertEquals(dtypeCode(s.options().embeddingType()), f.u8(44), at + "embedding_dtype");
            boolean outcomes = s.versions().stream().anyMatch(v -> !v.isTombstone() && v.intent().outcome() != null);
            int flags = (outcomes ? 1 : 0) | (x.p > 0 ? 2 : 0) | (s.options().compacted() ? 4 : 0);
            assertEquals(flags, f.u16(46), at + "flags (bits 3, 4 and 5-15 clear)");
            assertEquals(128, f.u64(48), at + "node_region_offset");
            assertEquals(f.regionOffset(12), f.u64(56), at + "embed_region_offset");
            assertEquals(f.regionOffset(13), f.u64(64), at + "edge_region_offset");
            assertEquals(f.regionOffset(16), f.u64(72), at + "string_table_offset");
            assertEquals(f.regionOffset(17), f.u64(80), at + "bloom_offset");
            assertEquals(f.regionOffset(18), f.u64(88), at + "index_offset");
            assertEquals(DocTbf.crc32c(f.bytes, 0, 104), f.u32(104), at + "header CRC32C of [0,104)");
            for (int i = 108; i < 128; i++) {
                assertEquals(0, f.bytes[i], at + "reserved header byte " + i);
            }
            int encoding = f.u8(f.entryOfKind(16) + 2);
            assertEquals(encoding, f.u8(45), at + "header compression = string table encoding");
        }
    }

    @Test
    void directoryPaddingFooterAndTrailerFollowTheDoc() throws Exception {
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            DocExpectations x = new DocExpectations(s.versions());
            String at = s.name() + ": ";
            long n = x.n;
            long fo = f.footerOffset();
            boolean csc = s.options().reverseEdges();
            assertEquals(0, fo % 64, at + "footer 64-aligned");
            assertEquals(1, f.u32(fo), at + "footer_version");
            int r = f.regionCount();
            assertEquals(csc ? 18 : 17, r, at + "region_count");
            long minTs = s.versions().stream().filter(v -> !v.isTombstone())
                    .mapToLong(v -> v.intent().timestampNs()).min().orElse(0);
            long maxTs = s.versions().stream().filter(v -> !v.isTombstone())
                    .mapToLong(v -> v.intent().timestampNs()).max().orElse(0);
            assertEquals(minTs, f.u64(fo + 8), at + "min_timestamp");
            assertEquals(maxTs, f.u64(fo + 16), at + "max_timestamp");
            assertEquals(s.versions().stream().mapToLong(IntentVersion::sequence).min().orElse(0), f.u64(fo + 24),
                    at + "min_sequence");
            assertEquals(s.versions().stream().mapToLong(IntentVersion::sequence).max().orElse(0), f.u64(fo + 32),
                    at + "max_sequence");
            assertEquals(x.p, f.u64(fo + 40), at + "put_count");
            assertEquals(n - x.p, f.u64(fo + 48), at + "tombstone_count");
            assertEquals(x.f(), f.u64(fo + 56), at + "foreign_id_count");
            assertEquals(csc ? 1 : 0, f.u32(fo + 64), at + "footer_flags");
            assertEquals(0, f.u32(fo + 68), at + "footer reserved");
            int footerEnd = (int) (fo + 72 + 40L * r);
            assertEquals(DocTbf.crc32c(f.bytes, (int) fo, footerEnd), f.u32(footerEnd), at + "footer CRC32C");

            long stride = stride(s.options().embeddingType(), s.options().dimension());
            long b = (n + 63) / 64;
            int strLen = (int) f.storedLength(16);
            long[][] expected = {
                {1, 16 * n, n}, {2, 8 * n, n}, {3, 8 * n, n}, {4, 4 * n, n}, {5, n, n}, {6, 8 * n, n},
                {7, n, n}, {8, 4 * n, n}, {9, 4 * n, n}, {10, 8 * n, n}, {11, 4 * n, n},
                {12, x.p * stride, x.p}, {13, 8 * (n + 1) + 12 * x.e, x.e},
                {14, 8 * (n + x.f() + 1) + 12 * x.e, x.e}, {15, 16L * x.f(), x.f()},
                {16, strLen, x.strings.size()},
                {17, 12 + 8 * ((DocExpectations.bloomBits(n) + 63) / 64), n}, {18, 8 + 16 * b, b}};
            long end = 128;
            int i = 0;
            for (long[] k : expected) {
                if (k[0] == 14 && !csc) {
                    continue;
                }
                long e = f.entry(i++);
                String kind = at + "kind " + k[0] + " ";
                assertEquals(k[0], f.u16(e), kind + "directory order");
                long off = f.u64(e + 8);
                assertEquals(DocTbf.align64(end), off, kind + "offset = align64(previous end)");
                for (long pad = end; pad < off; pad++) {
                    assertEquals(0, f.bytes[(int) pad], kind + "padding byte before it at " + pad);
                }
                assertEquals(k[1], f.u64(e + 16), kind + "stored_length");
                int encoding = f.u8(e + 2);
                assertTrue(encoding == 0 || (k[0] == 16 && encoding == 2), kind + "encoding " + encoding);
                if (encoding == 0) {
                    assertEquals(k[1], f.u64(e + 24), kind + "raw_length = stored_length");
                }
                assertEquals(0, f.u8(e + 3), kind + "entry reserved byte");
                assertEquals(DocTbf.crc32c(f.bytes, (int) off, (int) (off + k[1])), f.u32(e + 4), kind + "CRC32C");
                assertEquals(k[2], f.u64(e + 32), kind + "element_count");
                end = off + k[1];
            }
            assertEquals(DocTbf.align64(end), fo, at + "footer at align64(end of last region)");
            for (long pad = end; pad < fo; pad++) {
                assertEquals(0, f.bytes[(int) pad], at + "padding before footer at " + pad);
            }
            int size = f.bytes.length;
            assertEquals(footerEnd + 4 + 8, size, at + "trailer follows the footer CRC and ends the file");
            assertEquals(72 + 40 * r + 4, f.u32(size - 8), at + "trailer footer_length");
            assertArrayEquals(new byte[] {0x54, 0x41, 0x4C, 0x42}, Arrays.copyOfRange(f.bytes, size - 4, size),
                    at + "trailer magic");
        }
    }

    @Test
    void nodeColumnsHoldTheRowsAsDocumented() throws Exception {
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            DocExpectations x = new DocExpectations(s.versions());
            int slot = 0;
            for (int row = 0; row < x.n; row++) {
                IntentVersion v = s.versions().get(row);
                String at = s.name() + " row " + row + ": ";
                long idAt = f.regionOffset(1) + 16L * row;
                assertEquals(v.id().mostSignificantBits(), f.idHigh(idAt), at + "id high, big-endian");
                assertEquals(v.id().leastSignificantBits(), f.idLow(idAt), at + "id low, big-endian");
                assertEquals(v.sequence(), f.u64(f.regionOffset(6) + 8L * row), at + "sequence");
                long ts = f.u64(f.regionOffset(2) + 8L * row);
                long ctx = f.u64(f.regionOffset(3) + 8L * row);
                float conf = f.f32(f.regionOffset(4) + 4L * row);
                int status = f.u8(f.regionOffset(5) + row);
                int rowFlags = f.u8(f.regionOffset(7) + row);
                int embedSlot = f.u32(f.regionOffset(8) + 4L * row);
                int commandRef = f.u32(f.regionOffset(9) + 4L * row);
                long latency = f.u64(f.regionOffset(10) + 8L * row);
                int exit = f.u32(f.regionOffset(11) + 4L * row);
                if (v.isTombstone()) {
                    assertEquals(List.of(0L, 0L, 0f, 0, 1, -1, -1, 0L, 0),
                            List.of(ts, ctx, conf, status, rowFlags, embedSlot, commandRef, latency, exit),
                            at + "tombstone fields");
                    continue;
                }
                Intent in = v.intent();
                assertEquals(in.timestampNs(), ts, at + "timestamp");
                assertEquals(in.contextHash(), ctx, at + "context_hash");
                assertEquals(Float.floatToRawIntBits(in.confidence()), Float.floatToRawIntBits(conf), at + "confidence");
                assertEquals(in.status().ordinal(), status, at + "status code");
                assertEquals(in.outcome() != null ? 2 : 0, rowFlags, at + "row_flags");
                assertEquals(slot++, embedSlot, at + "embed_slot = rank among puts");
                assertEquals(x.strings.indexOf(in.command()), commandRef, at + "command_ref");
                assertEquals(in.outcome() == null ? 0 : in.outcome().latencyNs(), latency, at + "outcome_latency");
                assertEquals(in.outcome() == null ? 0 : in.outcome().exitCode(), exit, at + "outcome_exit_code");
            }
        }
    }

    @Test
    void embeddingsAreEncodedAsTheDocSays() throws Exception {
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            EmbeddingType type = s.options().embeddingType();
            int dim = s.options().dimension();
            long stride = stride(type, dim);
            long base = f.regionOffset(12);
            int slot = 0;
            for (IntentVersion v : s.versions()) {
                if (v.isTombstone()) {
                    continue;
                }
                float[] in = v.intent().embedding();
                long at = base + slot * stride;
                String where = s.name() + " slot " + slot + ": ";
                long used;
                switch (type) {
                    case F32 -> {
                        for (int i = 0; i < dim; i++) {
                            assertEquals(Float.floatToRawIntBits(in[i]), f.u32(at + 4L * i), where + "f32 " + i);
                        }
                        used = 4L * dim;
                    }
                    case F16, BF16 -> {
                        for (int i = 0; i < dim; i++) {
                            short want = type == EmbeddingType.F16 ? DocExpectations.f16(in[i]) : DocExpectations.bf16(in[i]);
                            assertEquals(want & 0xFFFF, f.u16(at + 2L * i), where + type + " " + i + " of " + in[i]);
                        }
                        used = 2L * dim;
                    }
                    case INT8 -> {
                        float scale = DocExpectations.int8Scale(in);
                        assertEquals(Float.floatToRawIntBits(scale), f.u32(at), where + "int8 scale");
                        assertEquals(0, f.u32(at + 4), where + "int8 zero_point");
                        for (int i = 0; i < dim; i++) {
                            int q = scale == 0 ? 0 : Math.clamp(Math.round(in[i] / scale), -127, 127);
                            assertEquals(q, f.bytes[(int) (at + 8 + i)], where + "q " + i);
                        }
                        used = 8L + dim;
                    }
                    default -> throw new AssertionError(type);
                }
                for (long pad = at + used; pad < at + stride; pad++) {
                    assertEquals(0, f.bytes[(int) pad], where + "vector padding at " + pad);
                }
                slot++;
            }
        }
    }

    @Test
    void edgeBlocksAndForeignIdsFollowTheDoc() throws Exception {
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            DocExpectations x = new DocExpectations(s.versions());
            int n = x.n;
            long csr = f.regionOffset(13);
            List<int[]> all = new ArrayList<>();
            long ptr = 0;
            for (int row = 0; row < n; row++) {
                String at = s.name() + " row " + row + ": ";
                assertEquals(ptr, f.u64(csr + 8L * row), at + "CSR row pointer");
                IntentVersion v = s.versions().get(row);
                List<Edge> edges = v.isTombstone() ? List.of() : v.intent().edges();
                for (int k = 0; k < edges.size(); k++) {
                    long e = csr + 8L * (n + 1) + 12 * ptr;
                    Edge edge = edges.get(k);
                    int target = x.targetCode(edge.target());
                    assertEquals(target, f.u32(e), at + "edge " + k + " target");
                    assertEquals(edge.relation().ordinal(), f.u8(e + 4), at + "edge " + k + " relation");
                    assertEquals(Float.floatToRawIntBits(edge.weight()), f.u32(e + 5), at + "edge " + k + " weight");
                    assertEquals(List.of(0, 0, 0), List.of(f.u8(e + 9), f.u8(e + 10), f.u8(e + 11)), at + "edge pad");
                    all.add(new int[] {row, target, edge.relation().ordinal(), Float.floatToRawIntBits(edge.weight())});
                    ptr++;
                }
            }
            assertEquals(x.e, f.u64(csr + 8L * n), s.name() + ": ptr[N] = E");

            long ft = f.regionOffset(15);
            for (int i = 0; i < x.f(); i++) {
                assertEquals(x.foreign.get(i).mostSignificantBits(), f.idHigh(ft + 16L * i), s.name() + " foreign " + i);
                assertEquals(x.foreign.get(i).leastSignificantBits(), f.idLow(ft + 16L * i), s.name() + " foreign " + i);
            }
            if (!s.options().reverseEdges()) {
                assertEquals(-1, f.entryOfKind(14), s.name() + ": no CSC entry without reverse edges");
                continue;
            }
            long csc = f.regionOffset(14);
            int cols = n + x.f();
            long at = 0;
            for (int col = 0; col < cols; col++) {
                assertEquals(at, f.u64(csc + 8L * col), s.name() + " CSC column pointer " + col);
                for (int[] edge : all) {
                    if (edge[1] != col) {
                        continue;
                    }
                    long e = csc + 8L * (cols + 1) + 12 * at;
                    String w = s.name() + " CSC col " + col + " entry " + at + ": ";
                    assertEquals(edge[0], f.u32(e), w + "source row");
                    assertEquals(edge[2], f.u8(e + 4), w + "relation");
                    assertEquals(edge[3], f.u32(e + 5), w + "weight");
                    at++;
                }
            }
            assertEquals(x.e, f.u64(csc + 8L * cols), s.name() + ": CSC ptr[N+F] = E");
        }
    }

    @Test
    void stringTableIsRawOrOneZstdFrameByTheDocsRule() throws Exception {
        int zstdTables = 0;
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            DocExpectations x = new DocExpectations(s.versions());
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            List<Integer> offsets = new ArrayList<>();
            offsets.add(0);
            for (String c : x.strings) {
                text.writeBytes(c.getBytes(StandardCharsets.UTF_8));
                offsets.add(text.size());
            }
            ByteBuffer raw = ByteBuffer.allocate(4 + 4 * offsets.size() + text.size()).order(ByteOrder.LITTLE_ENDIAN);
            raw.putInt(x.strings.size());
            offsets.forEach(raw::putInt);
            raw.put(text.toByteArray());
            byte[] rawBytes = raw.array();

            long e = f.entryOfKind(16);
            long off = f.u64(e + 8);
            int stored = (int) f.u64(e + 16);
            byte[] storedBytes = Arrays.copyOfRange(f.bytes, (int) off, (int) off + stored);
            String at = s.name() + ": ";
            boolean compress = rawBytes.length > 64
                    && Zstd.compress(rawBytes, 3).length * 10L < rawBytes.length * 9L;
            assertEquals(compress ? 2 : 0, f.u8(e + 2), at + "string table encoding (raw " + rawBytes.length + ")");
            assertEquals(rawBytes.length, f.u64(e + 24), at + "raw_length");
            if (compress) {
                zstdTables++;
                assertEquals(rawBytes.length, Zstd.getFrameContentSize(storedBytes),
                        at + "zstd frame declares its content size");
                assertArrayEquals(rawBytes, Zstd.decompress(storedBytes, rawBytes.length), at + "decompressed table");
            } else {
                assertArrayEquals(rawBytes, storedBytes, at + "raw table");
            }
        }
        // Without a compressed table the zstd half of the rule would pass untested.
        assertTrue(zstdTables > 0, "no shape had a zstd string table");
    }

    @Test
    void bloomFilterAndIdIndexMatchTheFormulas() throws Exception {
        for (WrittenSegment s : WrittenSegment.shapes(dir)) {
            DocTbf f = s.file();
            DocExpectations x = new DocExpectations(s.versions());
            String at = s.name() + ": ";
            long bloom = f.regionOffset(17);
            assertEquals(DocExpectations.bloomHashes(x.n), f.u32(bloom), at + "num_hashes");
            assertEquals(DocExpectations.bloomBits(x.n), f.u64(bloom + 4), at + "num_bits");
            long[] words = x.bloomWords();
            for (int i = 0; i < words.length; i++) {
                assertEquals(words[i], f.u64(bloom + 12 + 8L * i), at + "bloom word " + i);
            }
            long index = f.regionOffset(18);
            long b = (x.n + 63) / 64;
            assertEquals(64, f.u32(index), at + "block_rows");
            assertEquals(b, f.u32(index + 4) & 0xFFFFFFFFL, at + "block_count");
            for (int k = 0; k < b; k++) {
                IntentVersion fence = s.versions().get(64 * k);
                assertEquals(fence.id().mostSignificantBits(), f.idHigh(index + 8 + 16L * k), at + "fence " + k);
                assertEquals(fence.id().leastSignificantBits(), f.idLow(index + 8 + 16L * k), at + "fence " + k);
            }
        }
    }

    @Test
    void docsBloomExamplesHold() {
        assertEquals(959, DocExpectations.bloomBits(100));
        assertEquals(7, DocExpectations.bloomHashes(100));
        assertEquals(958_506, DocExpectations.bloomBits(100_000));
        assertEquals(7, DocExpectations.bloomHashes(100_000));
    }
}
