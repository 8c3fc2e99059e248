package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes TBF segments. One sequential pass through a fixed, reused buffer; the header goes out
 * first with is_partial set, and only after everything else has been forced is it rewritten with
 * is_partial clear and forced again. A crash therefore leaves either no file, a file whose header
 * says partial, or a complete segment. The caller syncs the directory afterwards.
 *
 * <p>Output is a function of the input alone, so equal inputs give byte-identical files. One
 * writer serves one thread at a time.
 */
public final class SegmentWriter {
    /** Big enough to amortize appends, small enough not to matter next to a memtable. */
    public static final int DEFAULT_BUFFER_BYTES = 1 << 20;

    private final FileLayer layer;
    private final int bufferBytes;
    private RegionOutput output;

    public SegmentWriter(FileLayer layer) {
        this(layer, DEFAULT_BUFFER_BYTES);
    }

    /** A writer with a {@code bufferBytes} buffer (grown to one embedding stride if smaller). */
    public SegmentWriter(FileLayer layer, int bufferBytes) {
        if (bufferBytes < ALIGNMENT) {
            throw new IllegalArgumentException("buffer must hold at least " + ALIGNMENT + " bytes");
        }
        this.layer = layer;
        this.bufferBytes = bufferBytes;
    }

    /**
     * Writes {@code versions} (sorted by id, strictly ascending) to a new file at {@code path},
     * replacing any file there.
     *
     * @throws IllegalArgumentException for unsorted or duplicate ids or a wrong embedding dimension
     * @throws IOException from the file layer; the file may then be left partial and should be deleted
     */
    public SegmentSummary write(Path path, SegmentWriteOptions options, List<IntentVersion> versions)
            throws IOException {
        Rows rows = Rows.of(versions, options.dimension());
        EdgeBlock edges = EdgeBlock.build(versions, rows.ids, options.reverseEdges());
        StringTable.Stored strings = StringTable.store(rows.strings.encode(), rows.strings.count());
        BloomFilter bloom = BloomFilter.build(rows.ids);
        byte[] index = IdIndex.build(rows.ids);
        EmbeddingType type = options.embeddingType();
        int dim = options.dimension();
        long stride = type.stride(dim);
        int n = rows.ids.length;

        SegmentLayout plan = new SegmentLayout();
        for (RegionKind kind : RegionKind.values()) {
            if (kind.isNodeColumn()) {
                plan.add(kind, (long) n * kind.columnWidth());
            }
        }
        plan.add(RegionKind.EMBEDDINGS, rows.puts * stride);
        plan.add(RegionKind.CSR, edges.csrLength());
        if (edges.hasReverse()) {
            plan.add(RegionKind.CSC, edges.cscLength());
        }
        plan.add(RegionKind.FOREIGN_IDS, edges.foreignLength());
        plan.add(RegionKind.STRING_TABLE, strings.bytes().length);
        plan.add(RegionKind.BLOOM, bloom.region().byteSize());
        plan.add(RegionKind.INDEX, index.length);

        int flags = (rows.hasOutcomes ? FLAG_HAS_OUTCOMES : 0)
                | (rows.puts > 0 ? FLAG_HAS_EMBEDDINGS : 0)
                | (options.compacted() ? FLAG_IS_COMPACTED : 0);
        SegmentHeader header = new SegmentHeader(VERSION_MAJOR, VERSION_MINOR, options.segmentId(),
                options.createdAtNs(), n, edges.edgeCount(), dim, type,
                strings.encoding() == ENCODING_ZSTD ? COMPRESSION_ZSTD : COMPRESSION_NONE,
                flags | FLAG_IS_PARTIAL,
                plan.offset(RegionKind.IDS), plan.offset(RegionKind.EMBEDDINGS), plan.offset(RegionKind.CSR),
                plan.offset(RegionKind.STRING_TABLE), plan.offset(RegionKind.BLOOM), plan.offset(RegionKind.INDEX),
                plan.footerOffset());

        RegionOutput out = output(stride);
        List<RegionEntry> entries = new ArrayList<>();
        long fileSize;
        try (WritableFile file = layer.create(path)) {
            out.start(file);
            out.putBytes(header.encode());
            writeColumns(out, plan, entries, versions, rows);
            writeEmbeddings(out, plan, entries, versions, type, dim, rows.puts);
            writeEdges(out, plan, entries, edges);
            out.beginRegion();
            out.putBytes(strings.bytes());
            entries.add(finish(out, plan, RegionKind.STRING_TABLE, strings.encoding(), strings.rawLength(),
                    strings.count()));
            out.beginRegion();
            out.putBytes(bloom.region().toArray(U8));
            entries.add(finish(out, plan, RegionKind.BLOOM, ENCODING_RAW, -1, n));
            out.beginRegion();
            out.putBytes(index);
            entries.add(finish(out, plan, RegionKind.INDEX, ENCODING_RAW, -1,
                    IdIndex.blockCountFor(n, INDEX_BLOCK_ROWS)));

            out.align();
            if (out.position() != plan.footerOffset()) {
                throw new IllegalStateException("footer planned at " + plan.footerOffset() + " but reached "
                        + out.position());
            }
            Footer footer = new Footer(FOOTER_VERSION, rows.minTimestamp, rows.maxTimestamp, rows.minSequence,
                    rows.maxSequence, rows.puts, n - rows.puts, edges.foreignIds.length,
                    edges.hasReverse() ? FOOTER_FLAG_CSC : 0, entries);
            byte[] footerBytes = footer.encode();
            out.putBytes(footerBytes);
            out.putU32(footerBytes.length);
            out.putBytes(MAGIC);
            fileSize = out.position();
            out.flush();
            if (options.sync()) {
                file.force();
            }
            file.write(0, ByteBuffer.wrap(header.withFlags(flags).encode()));
            if (options.sync()) {
                file.force();
            }
        }
        return new SegmentSummary(path, fileSize, n, edges.edgeCount(), rows.puts, n - rows.puts,
                edges.foreignIds.length, rows.minTimestamp, rows.maxTimestamp, rows.minSequence, rows.maxSequence,
                flags);
    }

    private RegionOutput output(long stride) {
        int needed = (int) Math.max(bufferBytes, stride);
        if (output == null || output.capacity() < needed) {
            output = new RegionOutput(needed);
        }
        return output;
    }

    private static void writeColumns(RegionOutput out, SegmentLayout plan, List<RegionEntry> entries,
            List<IntentVersion> versions, Rows rows) throws IOException {
        int n = versions.size();
        out.beginRegion();
        for (IntentVersion v : versions) {
            out.putId(v.id());
        }
        entries.add(finish(out, plan, RegionKind.IDS, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            out.putU64(v.isTombstone() ? 0 : v.intent().timestampNs());
        }
        entries.add(finish(out, plan, RegionKind.TIMESTAMPS, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            out.putU64(v.isTombstone() ? 0 : v.intent().contextHash());
        }
        entries.add(finish(out, plan, RegionKind.CONTEXT_HASHES, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            out.putF32(v.isTombstone() ? 0f : v.intent().confidence());
        }
        entries.add(finish(out, plan, RegionKind.CONFIDENCES, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            out.putU8(v.isTombstone() ? 0 : v.intent().status().code());
        }
        entries.add(finish(out, plan, RegionKind.STATUSES, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            out.putU64(v.sequence());
        }
        entries.add(finish(out, plan, RegionKind.SEQUENCE, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            int f = v.isTombstone() ? ROW_FLAG_TOMBSTONE
                    : v.intent().outcome() != null ? ROW_FLAG_HAS_OUTCOME : 0;
            out.putU8(f);
        }
        entries.add(finish(out, plan, RegionKind.ROW_FLAGS, ENCODING_RAW, -1, n));
        out.beginRegion();
        int slot = 0;
        for (IntentVersion v : versions) {
            out.putU32(v.isTombstone() ? NONE_U32 : slot++);
        }
        entries.add(finish(out, plan, RegionKind.EMBED_SLOT, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (int row = 0; row < n; row++) {
            out.putU32(rows.commandRef[row]);
        }
        entries.add(finish(out, plan, RegionKind.COMMAND_REF, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            Outcome o = v.isTombstone() ? null : v.intent().outcome();
            out.putU64(o == null ? 0 : o.latencyNs());
        }
        entries.add(finish(out, plan, RegionKind.OUTCOME_LATENCY, ENCODING_RAW, -1, n));
        out.beginRegion();
        for (IntentVersion v : versions) {
            Outcome o = v.isTombstone() ? null : v.intent().outcome();
            out.putU32(o == null ? 0 : o.exitCode());
        }
        entries.add(finish(out, plan, RegionKind.OUTCOME_EXIT_CODE, ENCODING_RAW, -1, n));
    }

    private static void writeEmbeddings(RegionOutput out, SegmentLayout plan, List<RegionEntry> entries,
            List<IntentVersion> versions, EmbeddingType type, int dim, long puts) throws IOException {
        int stride = (int) type.stride(dim);
        int vectorBytes = (int) type.vectorBytes(dim);
        out.beginRegion();
        for (IntentVersion v : versions) {
            if (!v.isTombstone()) {
                int at = out.reserveUnzeroed(stride);
                EmbeddingCodec.encode(type, v.intent().embeddingView(), dim, out.buffer(), at);
                out.buffer().asSlice(at + vectorBytes, stride - vectorBytes).fill((byte) 0);
            }
        }
        entries.add(finish(out, plan, RegionKind.EMBEDDINGS, ENCODING_RAW, -1, puts));
    }

    private static void writeEdges(RegionOutput out, SegmentLayout plan, List<RegionEntry> entries, EdgeBlock edges)
            throws IOException {
        int e = edges.edgeCount();
        out.beginRegion();
        for (long p : edges.rowPointers) {
            out.putU64(p);
        }
        for (int k = 0; k < e; k++) {
            out.putEdgeEntry(edges.targets[k], edges.relations[k], edges.weights[k]);
        }
        entries.add(finish(out, plan, RegionKind.CSR, ENCODING_RAW, -1, e));
        if (edges.hasReverse()) {
            out.beginRegion();
            for (long p : edges.columnPointers) {
                out.putU64(p);
            }
            for (int j = 0; j < e; j++) {
                int k = edges.cscEntry[j];
                out.putEdgeEntry(edges.sources[j], edges.relations[k], edges.weights[k]);
            }
            entries.add(finish(out, plan, RegionKind.CSC, ENCODING_RAW, -1, e));
        }
        out.beginRegion();
        for (IntentId id : edges.foreignIds) {
            out.putId(id);
        }
        entries.add(finish(out, plan, RegionKind.FOREIGN_IDS, ENCODING_RAW, -1, edges.foreignIds.length));
    }

    /** Closes the current region and checks that it landed where the header says it is. */
    private static RegionEntry finish(RegionOutput out, SegmentLayout plan, RegionKind kind, int encoding,
            long rawLength, long elementCount) {
        RegionOutput.Written w = out.endRegion();
        if (w.offset() != plan.offset(kind)) {
            throw new IllegalStateException("region " + kind + " planned at " + plan.offset(kind)
                    + " but written at " + w.offset());
        }
        long raw = encoding == ENCODING_RAW ? w.length() : rawLength;
        return new RegionEntry(kind.code(), encoding, w.crc(), w.offset(), w.length(), raw, elementCount);
    }

    /** The per-row facts gathered in one pass over the input, which is validated on the way. */
    private static final class Rows {
        IntentId[] ids;
        int[] commandRef;
        final StringTable.Builder strings = new StringTable.Builder();
        long puts;
        boolean hasOutcomes;
        long minTimestamp;
        long maxTimestamp;
        long minSequence;
        long maxSequence;

        static Rows of(List<IntentVersion> versions, int dim) {
            Rows r = new Rows();
            int n = versions.size();
            if (n > Integer.MAX_VALUE - 1) {
                throw new IllegalArgumentException("too many rows for one segment: " + n);
            }
            r.ids = new IntentId[n];
            r.commandRef = new int[n];
            r.minTimestamp = Long.MAX_VALUE;
            r.maxTimestamp = Long.MIN_VALUE;
            r.minSequence = Long.MAX_VALUE;
            r.maxSequence = Long.MIN_VALUE;
            for (int row = 0; row < n; row++) {
                IntentVersion v = versions.get(row);
                if (v == null) {
                    throw new IllegalArgumentException("version " + row + " is null");
                }
                if (row > 0 && r.ids[row - 1].compareTo(v.id()) >= 0) {
                    throw new IllegalArgumentException("versions must be sorted by id strictly ascending: row "
                            + row + " id " + v.id() + " follows " + r.ids[row - 1]);
                }
                r.ids[row] = v.id();
                r.minSequence = Math.min(r.minSequence, v.sequence());
                r.maxSequence = Math.max(r.maxSequence, v.sequence());
                Intent intent = v.intent();
                if (intent == null) {
                    r.commandRef[row] = NONE_U32;
                    continue;
                }
                if (intent.dimension() != dim) {
                    throw new IllegalArgumentException("intent " + v.id() + " has " + intent.dimension()
                            + " embedding values but the segment's dimension is " + dim);
                }
                r.puts++;
                r.commandRef[row] = r.strings.add(intent.command());
                r.hasOutcomes |= intent.outcome() != null;
                r.minTimestamp = Math.min(r.minTimestamp, intent.timestampNs());
                r.maxTimestamp = Math.max(r.maxTimestamp, intent.timestampNs());
            }
            if (r.puts == 0) {
                r.minTimestamp = 0;
                r.maxTimestamp = 0;
            }
            if (n == 0) {
                r.minSequence = 0;
                r.maxSequence = 0;
            }
            return r;
        }
    }
}
