package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.WritableFile;
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
        return write(path, options, SegmentRows.of(versions));
    }

    /**
     * Writes {@code input} (sorted by id, strictly ascending) to a new file at {@code path},
     * replacing any file there. As {@link #write(Path, SegmentWriteOptions, List)}.
     */
    public SegmentSummary write(Path path, SegmentWriteOptions options, SegmentRows input) throws IOException {
        Rows rows = Rows.of(input, options.dimension());
        EdgeBlock edges = EdgeBlock.build(input, rows, options.reverseEdges());
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
            writeColumns(out, plan, entries, input, rows);
            writeEmbeddings(out, plan, entries, input, rows, type, dim);
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
            SegmentRows input, Rows rows) throws IOException {
        int n = input.size();
        boolean[] tombstone = rows.tombstone;
        Outcome[] outcomes = rows.outcomes;
        out.beginRegion();
        out.putColumn(n, ID_BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += ID_BYTES) {
                rows.ids[row].writeTo(buf, at);
            }
        });
        entries.add(finish(out, plan, RegionKind.IDS, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Long.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Long.BYTES) {
                buf.set(U64, at, tombstone[row] ? 0 : input.timestampNs(row));
            }
        });
        entries.add(finish(out, plan, RegionKind.TIMESTAMPS, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Long.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Long.BYTES) {
                buf.set(U64, at, tombstone[row] ? 0 : input.contextHash(row));
            }
        });
        entries.add(finish(out, plan, RegionKind.CONTEXT_HASHES, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Float.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Float.BYTES) {
                buf.set(F32, at, tombstone[row] ? 0f : input.confidence(row));
            }
        });
        entries.add(finish(out, plan, RegionKind.CONFIDENCES, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Byte.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at++) {
                buf.set(U8, at, (byte) (tombstone[row] ? 0 : input.status(row).code()));
            }
        });
        entries.add(finish(out, plan, RegionKind.STATUSES, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Long.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Long.BYTES) {
                buf.set(U64, at, rows.sequences[row]);
            }
        });
        entries.add(finish(out, plan, RegionKind.SEQUENCE, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Byte.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at++) {
                int f = tombstone[row] ? ROW_FLAG_TOMBSTONE : outcomes[row] != null ? ROW_FLAG_HAS_OUTCOME : 0;
                buf.set(U8, at, (byte) f);
            }
        });
        entries.add(finish(out, plan, RegionKind.ROW_FLAGS, ENCODING_RAW, -1, n));
        out.beginRegion();
        int[] nextSlot = {0}; // carried from one buffer-full of rows to the next
        out.putColumn(n, Integer.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Integer.BYTES) {
                buf.set(U32, at, tombstone[row] ? NONE_U32 : nextSlot[0]++);
            }
        });
        entries.add(finish(out, plan, RegionKind.EMBED_SLOT, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Integer.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Integer.BYTES) {
                buf.set(U32, at, rows.commandRef[row]);
            }
        });
        entries.add(finish(out, plan, RegionKind.COMMAND_REF, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Long.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Long.BYTES) {
                buf.set(U64, at, outcomes[row] == null ? 0 : outcomes[row].latencyNs());
            }
        });
        entries.add(finish(out, plan, RegionKind.OUTCOME_LATENCY, ENCODING_RAW, -1, n));
        out.beginRegion();
        out.putColumn(n, Integer.BYTES, (buf, at, from, to) -> {
            for (int row = from; row < to; row++, at += Integer.BYTES) {
                buf.set(U32, at, outcomes[row] == null ? 0 : outcomes[row].exitCode());
            }
        });
        entries.add(finish(out, plan, RegionKind.OUTCOME_EXIT_CODE, ENCODING_RAW, -1, n));
    }

    private static void writeEmbeddings(RegionOutput out, SegmentLayout plan, List<RegionEntry> entries,
            SegmentRows input, Rows rows, EmbeddingType type, int dim) throws IOException {
        int stride = (int) type.stride(dim);
        int vectorBytes = (int) type.vectorBytes(dim);
        out.beginRegion();
        for (int row = 0; row < rows.tombstone.length; row++) {
            if (!rows.tombstone[row]) {
                int at = out.reserveUnzeroed(stride);
                input.encodeEmbedding(row, type, out.buffer(), at);
                out.buffer().asSlice(at + vectorBytes, stride - vectorBytes).fill((byte) 0);
            }
        }
        entries.add(finish(out, plan, RegionKind.EMBEDDINGS, ENCODING_RAW, -1, rows.puts));
    }

    private static void writeEdges(RegionOutput out, SegmentLayout plan, List<RegionEntry> entries, EdgeBlock edges)
            throws IOException {
        int e = edges.edgeCount();
        out.beginRegion();
        putPointers(out, edges.rowPointers);
        out.putColumn(e, EDGE_ENTRY_BYTES, (buf, at, from, to) -> {
            for (int k = from; k < to; k++, at += EDGE_ENTRY_BYTES) {
                RegionOutput.encodeEdgeEntry(buf, at, edges.targets[k], edges.relations[k], edges.weights[k]);
            }
        });
        entries.add(finish(out, plan, RegionKind.CSR, ENCODING_RAW, -1, e));
        if (edges.hasReverse()) {
            out.beginRegion();
            putPointers(out, edges.columnPointers);
            out.putColumn(e, EDGE_ENTRY_BYTES, (buf, at, from, to) -> {
                for (int j = from; j < to; j++, at += EDGE_ENTRY_BYTES) {
                    int k = edges.cscEntry[j];
                    RegionOutput.encodeEdgeEntry(buf, at, edges.sources[j], edges.relations[k], edges.weights[k]);
                }
            });
            entries.add(finish(out, plan, RegionKind.CSC, ENCODING_RAW, -1, e));
        }
        out.beginRegion();
        IntentId[] foreign = edges.foreignIds;
        out.putColumn(foreign.length, ID_BYTES, (buf, at, from, to) -> {
            for (int i = from; i < to; i++, at += ID_BYTES) {
                foreign[i].writeTo(buf, at);
            }
        });
        entries.add(finish(out, plan, RegionKind.FOREIGN_IDS, ENCODING_RAW, -1, edges.foreignIds.length));
    }

    /** Closes the current region and checks that it landed where the header says it is. */
    private static void putPointers(RegionOutput out, long[] pointers) throws IOException {
        out.putColumn(pointers.length, POINTER_BYTES, (buf, at, from, to) -> {
            for (int i = from; i < to; i++, at += POINTER_BYTES) {
                buf.set(U64, at, pointers[i]);
            }
        });
    }

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
    static final class Rows {
        IntentId[] ids;
        long[] sequences;
        boolean[] tombstone;
        Outcome[] outcomes;
        int[] commandRef;
        final StringTable.Builder strings = new StringTable.Builder();
        long puts;
        boolean hasOutcomes;
        long minTimestamp;
        long maxTimestamp;
        long minSequence;
        long maxSequence;

        static Rows of(SegmentRows input, int dim) {
            Rows r = new Rows();
            int n = input.size();
            if (n > Integer.MAX_VALUE - 1) {
                throw new IllegalArgumentException("too many rows for one segment: " + n);
            }
            r.ids = new IntentId[n];
            r.sequences = new long[n];
            r.tombstone = new boolean[n];
            r.outcomes = new Outcome[n];
            r.commandRef = new int[n];
            r.minTimestamp = Long.MAX_VALUE;
            r.maxTimestamp = Long.MIN_VALUE;
            r.minSequence = Long.MAX_VALUE;
            r.maxSequence = Long.MIN_VALUE;
            for (int row = 0; row < n; row++) {
                IntentId id = input.id(row);
                if (row > 0 && r.ids[row - 1].compareTo(id) >= 0) {
                    throw new IllegalArgumentException("versions must be sorted by id strictly ascending: row "
                            + row + " id " + id + " follows " + r.ids[row - 1]);
                }
                r.ids[row] = id;
                long sequence = input.sequence(row);
                r.sequences[row] = sequence;
                r.minSequence = Math.min(r.minSequence, sequence);
                r.maxSequence = Math.max(r.maxSequence, sequence);
                if (input.isTombstone(row)) {
                    r.tombstone[row] = true;
                    r.commandRef[row] = NONE_U32;
                    continue;
                }
                if (input.dimension(row) != dim) {
                    throw new IllegalArgumentException("intent " + id + " has " + input.dimension(row)
                            + " embedding values but the segment's dimension is " + dim);
                }
                r.puts++;
                r.commandRef[row] = r.strings.add(input.command(row));
                r.outcomes[row] = input.outcome(row);
                r.hasOutcomes |= r.outcomes[row] != null;
                long timestamp = input.timestampNs(row);
                r.minTimestamp = Math.min(r.minTimestamp, timestamp);
                r.maxTimestamp = Math.max(r.maxTimestamp, timestamp);
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
