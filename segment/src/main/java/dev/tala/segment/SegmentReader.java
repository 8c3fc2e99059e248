package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.ReadableFile;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.format.RegionKind;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A memory-mapped TBF segment with zero-copy typed access to its columns, embeddings and edges.
 *
 * <p>{@link #open} validates the header, trailer, footer and directory, and the checksums of the
 * small regions a point lookup relies on (bloom filter, id index, foreign ids). Every other
 * region's CRC32C is checked once, on the first access to that region, before any value from it
 * is returned (or all of them at open with {@link SegmentOpenOption#VERIFY_ALL}): a flipped bit
 * is never served. A damaged region raises {@link CorruptionException} naming the file, the
 * region and its offset on every access, while the undamaged regions of the same file stay
 * readable. {@link #verify()} additionally checks the structure across regions. Values that steer
 * further reads (row pointers, edge targets, string references, embedding slots, enum codes) are
 * checked where they are read, so even a checksum collision raises {@link CorruptionException},
 * never an out-of-bounds access. Row arguments outside {@code [0, rowCount())} are caller errors
 * and raise {@link IndexOutOfBoundsException}.
 *
 * <p>Safe for concurrent use by many threads. {@link #close()} unmaps the file; the engine
 * reference-counts readers so that it happens after the last reader is done.
 */
public final class SegmentReader implements AutoCloseable {
    private final FileLayer layer;
    private final Path path;
    private final String file;
    private final MappedRegion mapping;
    private final SegmentHeader header;
    private final Footer footer;
    private final RegionDirectory directory;
    private final long footerOffset;
    private final int rows;
    private final long edges;
    private final int foreignCount;
    private final int putCount;
    private final int dimension;
    private final EmbeddingType type;
    private final long stride;

    private final MemorySegment data;
    private final CheckedRegions regions;
    // Each region is read only through bytes(), which checks its CRC32C on first use.
    private final CheckedRegion ids;
    private final CheckedRegion timestamps;
    private final CheckedRegion contextHashes;
    private final CheckedRegion confidences;
    private final CheckedRegion statuses;
    private final CheckedRegion sequences;
    private final CheckedRegion rowFlags;
    private final CheckedRegion embedSlots;
    private final CheckedRegion commandRefs;
    private final CheckedRegion latencies;
    private final CheckedRegion exitCodes;
    private final CheckedRegion embeddings;
    private final CheckedRegion csr;
    private final CheckedRegion csc;
    private final CheckedRegion stringTable;
    /** Checked at open, like the bloom filter and the index: lookups depend on it. */
    private final MemorySegment foreignIds;
    private final BloomFilter bloom;
    private final IdIndex index;
    private final Object stringsLock = new Object();
    private volatile StringTable strings;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile IntentId[] idRange;
    private static final IntentId[] OPEN_ID_RANGE = {IntentId.of(0, 0), IntentId.of(-1L, -1L)};

    private SegmentReader(FileLayer layer, Path path, MappedRegion mapping, SegmentOpener.Opened opened) {
        this.layer = layer;
        this.path = path;
        this.file = path.toString();
        this.mapping = mapping;
        this.header = opened.header();
        this.footer = opened.footer();
        this.directory = opened.directory();
        this.footerOffset = opened.footerOffset();
        this.rows = directory.nodeCount();
        this.edges = directory.edgeCount();
        this.foreignCount = directory.foreignIdCount();
        this.putCount = directory.putCount();
        this.dimension = header.embeddingDim();
        this.type = header.embeddingType();
        this.stride = directory.stride();
        this.data = mapping.segment();
        this.regions = new CheckedRegions(data, directory, file);
        this.ids = regions.get(RegionKind.IDS);
        this.timestamps = regions.get(RegionKind.TIMESTAMPS);
        this.contextHashes = regions.get(RegionKind.CONTEXT_HASHES);
        this.confidences = regions.get(RegionKind.CONFIDENCES);
        this.statuses = regions.get(RegionKind.STATUSES);
        this.sequences = regions.get(RegionKind.SEQUENCE);
        this.rowFlags = regions.get(RegionKind.ROW_FLAGS);
        this.embedSlots = regions.get(RegionKind.EMBED_SLOT);
        this.commandRefs = regions.get(RegionKind.COMMAND_REF);
        this.latencies = regions.get(RegionKind.OUTCOME_LATENCY);
        this.exitCodes = regions.get(RegionKind.OUTCOME_EXIT_CODE);
        this.embeddings = regions.get(RegionKind.EMBEDDINGS);
        this.csr = regions.get(RegionKind.CSR);
        this.csc = footer.hasReverseEdges() ? regions.get(RegionKind.CSC) : null;
        this.stringTable = regions.get(RegionKind.STRING_TABLE);
        this.foreignIds = regions.get(RegionKind.FOREIGN_IDS).bytes();
        this.bloom = BloomFilter.view(regions.get(RegionKind.BLOOM).bytes(), offsetOf(RegionKind.BLOOM), file);
        CheckedRegion indexRegion = regions.get(RegionKind.INDEX);
        // The index reads the ids column only inside find(), which checks that column first.
        this.index = IdIndex.view(indexRegion.bytes(), indexRegion.offset(), indexRegion.entry().elementCount(),
                ids.uncheckedBytes(), ids.offset(), rows, file);
    }

    // ---- opening ----------------------------------------------------------------------------

    /**
     * Maps and validates the segment at {@code path}: header, trailer, footer, directory, and the
     * checksums of the bloom filter, id index and foreign ids. The other regions are checked on
     * first access, or here as well with {@link SegmentOpenOption#VERIFY_ALL}.
     *
     * @throws CorruptionException if the file is not a sound, complete segment (a partial one is
     *     accepted only with {@link SegmentOpenOption#ALLOW_PARTIAL}), or, with VERIFY_ALL, if any
     *     region fails its checksum
     * @throws dev.tala.core.error.UnsupportedFormatException for another major version or an encrypted segment
     * @throws IOException if the file cannot be mapped
     */
    public static SegmentReader open(FileLayer layer, Path path, SegmentOpenOption... options) throws IOException {
        MappedRegion mapping = layer.map(path);
        try {
            MemorySegment whole = mapping.segment();
            Set<SegmentOpenOption> set = optionSet(options);
            SegmentOpener.Opened opened = SegmentOpener.open(new SegmentOpener.ByteSource() {
                @Override
                public long size() {
                    return whole.byteSize();
                }

                @Override
                public MemorySegment read(long offset, long length) {
                    return whole.asSlice(offset, length);
                }
            }, path.toString(), set);
            SegmentReader reader = new SegmentReader(layer, path, mapping, opened);
            if (set.contains(SegmentOpenOption.VERIFY_ALL)) {
                reader.regions.verifyAll();
            }
            return reader;
        } catch (RuntimeException | Error e) {
            // Error too: a read of a file cut short after mapping faults as an InternalError.
            mapping.close();
            throw e;
        }
    }

    /**
     * Reads and validates only the 128-byte header, for listing tools. Partial and encrypted
     * segments are returned (check {@link SegmentHeader#isPartial()}), not refused.
     */
    public static SegmentHeader readHeader(FileLayer layer, Path path) throws IOException {
        try (ReadableFile in = layer.openForRead(path)) {
            long size = in.size();
            if (size < HEADER_BYTES) {
                throw new CorruptionException(path.toString(), 0, "file has " + size
                        + " bytes, shorter than the " + HEADER_BYTES + "-byte header");
            }
            ByteBuffer buffer = ByteBuffer.allocate(HEADER_BYTES);
            in.readFully(0, buffer);
            return SegmentHeader.decode(MemorySegment.ofArray(buffer.array()), path.toString());
        }
    }

    /**
     * Reads and validates the header, trailer and footer with a few positional reads, without
     * mapping the file: counts, ranges, flags and the region directory.
     */
    public static SegmentInfo readSummary(FileLayer layer, Path path, SegmentOpenOption... options) throws IOException {
        try (ReadableFile in = layer.openForRead(path)) {
            SegmentOpener.Opened opened = SegmentOpener.open(new SegmentOpener.ByteSource() {
                @Override
                public long size() throws IOException {
                    return in.size();
                }

                @Override
                public MemorySegment read(long offset, long length) throws IOException {
                    ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(length));
                    in.readFully(offset, buffer);
                    return MemorySegment.ofArray(buffer.array());
                }
            }, path.toString(), optionSet(options));
            return new SegmentInfo(path, opened.fileSize(), opened.header(), opened.footer(), opened.directory());
        }
    }

    private static Set<SegmentOpenOption> optionSet(SegmentOpenOption[] options) {
        Set<SegmentOpenOption> set = EnumSet.noneOf(SegmentOpenOption.class);
        for (SegmentOpenOption o : options) {
            set.add(Objects.requireNonNull(o));
        }
        return set;
    }

    private long offsetOf(RegionKind kind) {
        return directory.entry(kind).offset();
    }

    private CorruptionException corrupt(long offset, String what) {
        return new CorruptionException(file, offset, what);
    }

    // ---- segment-wide facts -----------------------------------------------------------------

    public Path path() {
        return path;
    }

    public SegmentHeader header() {
        return header;
    }

    public Footer footer() {
        return footer;
    }

    public RegionDirectory directory() {
        return directory;
    }

    /** All rows, tombstones included. */
    public int rowCount() {
        return rows;
    }

    public int putCount() {
        return putCount;
    }

    public long edgeCount() {
        return edges;
    }

    public int dimension() {
        return dimension;
    }

    public EmbeddingType dtype() {
        return type;
    }

    /** Bytes between consecutive vectors in {@link #embeddingRegion()}; a multiple of 64. */
    public long stride() {
        return stride;
    }

    public long fileSize() {
        return data.byteSize();
    }

    /**
     * This segment as its writer reported it when the file was finished, read back from the
     * header and footer: what a compaction that keeps a segment as it is reports as its output.
     */
    public SegmentSummary summary() {
        return new SegmentSummary(path, fileSize(), rows, edges, putCount, footer.tombstoneCount(),
                foreignCount, footer.minTimestamp(), footer.maxTimestamp(), footer.minSequence(),
                footer.maxSequence(), header.flags());
    }

    /**
     * The file's length on disk now, or -1 if it is gone. Shorter than {@link #fileSize()} means
     * something outside the database cut the file while it was mapped: a read of the mapping past
     * the new end faults. A deleted file stays mapped whole (a compaction input readers still use).
     */
    public long lengthOnDisk() throws IOException {
        try {
            return layer.size(path);
        } catch (NoSuchFileException deleted) {
            return -1;
        }
    }

    long footerOffset() {
        return footerOffset;
    }

    MemorySegment data() {
        return data;
    }

    String fileName() {
        return file;
    }

    // ---- columns ----------------------------------------------------------------------------

    // Every column accessor returns checked bytes: its region's checksum matched (the first call
    // may therefore take the time to hash the column) or it throws CorruptionException.

    /** The ids column: rowCount() x 16 big-endian bytes, ascending. */
    public MemorySegment idsColumn() {
        return ids.bytes();
    }

    /** The timestamps column: rowCount() little-endian u64 nanoseconds (0 for tombstones). */
    public MemorySegment timestampColumn() {
        return timestamps.bytes();
    }

    public MemorySegment contextHashColumn() {
        return contextHashes.bytes();
    }

    public MemorySegment confidenceColumn() {
        return confidences.bytes();
    }

    public MemorySegment statusColumn() {
        return statuses.bytes();
    }

    public MemorySegment sequenceColumn() {
        return sequences.bytes();
    }

    public IntentId id(int row) {
        Objects.checkIndex(row, rows);
        return IntentId.readFrom(ids.bytes(), (long) row * ID_BYTES);
    }

    public long timestamp(int row) {
        Objects.checkIndex(row, rows);
        return timestamps.bytes().get(U64, (long) row * U64_BYTES);
    }

    public long contextHash(int row) {
        Objects.checkIndex(row, rows);
        return contextHashes.bytes().get(U64, (long) row * U64_BYTES);
    }

    public float confidence(int row) {
        Objects.checkIndex(row, rows);
        return confidences.bytes().get(F32, (long) row * F32_BYTES);
    }

    /** The stored status (PENDING for a tombstone, whose status byte is zero). */
    public Status status(int row) {
        Objects.checkIndex(row, rows);
        int code = Byte.toUnsignedInt(statuses.bytes().get(U8, row));
        if (!Status.isValidCode(code)) {
            throw corrupt(offsetOf(RegionKind.STATUSES) + row, "row " + row + " has unknown status code " + code);
        }
        return Status.ofCode(code);
    }

    public long sequence(int row) {
        Objects.checkIndex(row, rows);
        return sequences.bytes().get(U64, (long) row * U64_BYTES);
    }

    int rowFlags(int row) {
        return Byte.toUnsignedInt(rowFlags.bytes().get(U8, row));
    }

    public boolean isTombstone(int row) {
        Objects.checkIndex(row, rows);
        return (rowFlags(row) & ROW_FLAG_TOMBSTONE) != 0;
    }

    /** The outcome, or null if the row has none (always null for a tombstone). */
    public Outcome outcome(int row) {
        Objects.checkIndex(row, rows);
        int flags = rowFlags(row);
        if ((flags & ROW_FLAG_TOMBSTONE) != 0 || (flags & ROW_FLAG_HAS_OUTCOME) == 0) {
            return null;
        }
        long latency = latencies.bytes().get(U64, (long) row * U64_BYTES);
        if (latency < 0) {
            throw corrupt(offsetOf(RegionKind.OUTCOME_LATENCY) + (long) row * U64_BYTES, "row " + row
                    + " outcome latency " + Long.toUnsignedString(latency) + " exceeds 2^63-1");
        }
        return new Outcome(latency, exitCodes.bytes().get(U32, (long) row * U32_BYTES));
    }

    /** The command, or null for a tombstone. The string table is loaded on first use. */
    public String command(int row) {
        Objects.checkIndex(row, rows);
        if (isTombstone(row)) {
            return null;
        }
        long ref = Integer.toUnsignedLong(commandRefs.bytes().get(U32, (long) row * U32_BYTES));
        StringTable table = strings();
        if (ref >= table.count()) {
            throw corrupt(offsetOf(RegionKind.COMMAND_REF) + (long) row * U32_BYTES, "row " + row
                    + " refers to string " + ref + " but the table holds " + table.count());
        }
        return table.get((int) ref);
    }

    /** The validated string table (checksummed and, if compressed, decompressed once). */
    public StringTable strings() {
        StringTable table = strings;
        if (table == null) {
            synchronized (stringsLock) {
                table = strings;
                if (table == null) {
                    table = StringTable.load(stringTable.bytes(), stringTable.entry(), rows, putCount, file);
                    strings = table;
                }
            }
        }
        return table;
    }

    // ---- embeddings -------------------------------------------------------------------------

    /** The embedding slot of the row (its rank among non-tombstone rows), or -1 for a tombstone. */
    public int embeddingSlot(int row) {
        Objects.checkIndex(row, rows);
        long slot = Integer.toUnsignedLong(embedSlots.bytes().get(U32, (long) row * U32_BYTES));
        if (isTombstone(row)) {
            return -1;
        }
        if (slot >= putCount) {
            throw corrupt(offsetOf(RegionKind.EMBED_SLOT) + (long) row * U32_BYTES, "row " + row
                    + " has embedding slot " + slot + " but the segment holds " + putCount + " vectors");
        }
        return (int) slot;
    }

    /**
     * The row holding embedding slot {@code slot}, found from {@code fromRow} on: the first row
     * there that is not a tombstone, checked against its embed_slot entry. A reader walking the
     * slots in order (a search scores vectors by slot) passes the row after the previous slot's.
     * Row flags that disagree with the footer's put count or with embed_slot (which only a
     * checksum collision or a hostile file gets past the checksums) are a CorruptionException.
     */
    public int rowOfSlot(int slot, int fromRow) {
        int row = fromRow;
        while (row < rows && isTombstone(row)) {
            row++;
        }
        if (row >= rows) {
            throw corrupt(offsetOf(RegionKind.ROW_FLAGS), "row_flags mark fewer rows as puts than the "
                    + putCount + " the footer counts: no row holds embedding slot " + slot);
        }
        int stored = embeddingSlot(row);
        if (stored != slot) {
            throw corrupt(offsetOf(RegionKind.EMBED_SLOT) + (long) row * U32_BYTES, "row " + row
                    + " has embedding slot " + stored + ", but it is put number " + slot + " by its row_flags");
        }
        return row;
    }

    /**
     * A row a caller found where it should not be: a tombstone (by row_flags) where a time-range
     * scan found a timestamp other than 0, which a writer never stores for one.
     */
    public CorruptionException tombstoneWithTimestamp(int row) {
        return corrupt(offsetOf(RegionKind.ROW_FLAGS) + row, "row " + row + " is flagged a tombstone but has timestamp "
                + Long.toUnsignedString(timestamp(row)));
    }

    /**
     * All vectors in slot order, {@link #stride()} bytes apart, each starting 64-byte aligned.
     * The first call checks the whole region's checksum (a pass over every vector).
     */
    public MemorySegment embeddingRegion() {
        return embeddings.bytes();
    }

    /** The encoded vector of {@code slot}: exactly one stride. */
    public MemorySegment embeddingAtSlot(int slot) {
        Objects.checkIndex(slot, putCount);
        return embeddings.bytes().asSlice(slot * stride, stride);
    }

    /** The row's encoded vector (one stride, 64-byte aligned), or null for a tombstone. */
    public MemorySegment embedding(int row) {
        int slot = embeddingSlot(row);
        return slot < 0 ? null : embeddings.bytes().asSlice(slot * stride, stride);
    }

    /** The row's vector decoded to floats, or null for a tombstone. */
    public float[] embeddingAsFloats(int row) {
        int slot = embeddingSlot(row);
        return slot < 0 ? null : EmbeddingCodec.decode(type, embeddings.bytes(), slot * stride, dimension);
    }

    // ---- whole versions ---------------------------------------------------------------------

    /** The row as the engine stores it: the full intent, or a tombstone. */
    public IntentVersion version(int row) {
        Objects.checkIndex(row, rows);
        IntentId id = id(row);
        long sequence = sequence(row);
        if (sequence < 0) {
            throw corrupt(offsetOf(RegionKind.SEQUENCE) + (long) row * U64_BYTES, "row " + row
                    + " sequence " + Long.toUnsignedString(sequence) + " exceeds 2^63-1");
        }
        if (isTombstone(row)) {
            return IntentVersion.tombstone(id, sequence);
        }
        try {
            Intent intent = Intent.builder()
                    .id(id)
                    .timestampNs(timestamp(row))
                    .contextHash(contextHash(row))
                    .confidence(confidence(row))
                    .status(status(row))
                    .outcome(outcome(row))
                    .command(command(row))
                    .adoptEmbedding(embeddingAsFloats(row))
                    .edges(edgesFrom(row))
                    .build();
            return IntentVersion.put(sequence, intent);
        } catch (InvalidIntentException e) {
            throw new CorruptionException(file, offsetOf(RegionKind.IDS) + (long) row * ID_BYTES, "row " + row
                    + " does not decode to a valid intent: " + e.getMessage(), e);
        }
    }

    // ---- lookups ----------------------------------------------------------------------------

    /**
     * False means the id is certainly not in this segment (tombstones included). An id outside
     * the segment's id range is answered without the bloom filter: with time-ordered ids most
     * segments of a database hold ranges far from any one id.
     */
    public boolean mightContain(IntentId id) {
        if (rows == 0) {
            return false;
        }
        IntentId[] range = idRange();
        return id.compareTo(range[0]) >= 0 && id.compareTo(range[1]) <= 0 && bloom.mightContain(id);
    }

    /**
     * The first and last id, read once (checking the ids column) on the first lookup. If the ids
     * column is damaged the range is left open, so the bloom filter answers as it would without
     * the range, and the damage is reported by the lookups that read the column ({@link #find});
     * a damaged segment then does not fail lookups of ids it could never hold.
     */
    private IntentId[] idRange() {
        IntentId[] range = idRange;
        if (range == null) {
            try {
                range = new IntentId[] {id(0), id(rows - 1)};
            } catch (CorruptionException damaged) {
                range = OPEN_ID_RANGE;
            }
            idRange = range;
        }
        return range;
    }

    /** The row holding {@code id} (put or tombstone), or -1. O(log n) via the id index. */
    public int find(IntentId id) {
        ids.bytes(); // the index binary-searches the ids column: it must be checked first
        return index.find(id);
    }

    public BloomFilter bloomFilter() {
        return bloom;
    }

    /** The id index; its lookups read the ids column, which is checked before this returns. */
    public IdIndex idIndex() {
        ids.bytes();
        return index;
    }

    /** The index without the ids column check, for the verifier's own fence check. */
    IdIndex uncheckedIdIndex() {
        return index;
    }

    // ---- edges ------------------------------------------------------------------------------

    public int foreignIdCount() {
        return foreignCount;
    }

    /** Foreign id {@code i}: an edge target outside this segment (edge target N + i). */
    public IntentId foreignId(int i) {
        Objects.checkIndex(i, foreignCount);
        return IntentId.readFrom(foreignIds, (long) i * ID_BYTES);
    }

    /** The index of {@code id} in the foreign-id table, or -1. */
    public int foreignIndex(IntentId id) {
        int lo = 0;
        int hi = foreignCount - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = IdIndex.compare(foreignIds, (long) mid * ID_BYTES, id.mostSignificantBits(),
                    id.leastSignificantBits());
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    public boolean hasReverseEdges() {
        return csc != null;
    }

    /** Number of outgoing edges of the row. */
    public int outDegree(int row) {
        Objects.checkIndex(row, rows);
        long[] span = span(csr.bytes(), csr.offset(), row, "row");
        return (int) (span[1] - span[0]);
    }

    /** The row's outgoing edges, in the order of its intent's list, targets resolved to ids. */
    public List<Edge> edgesFrom(int row) {
        Objects.checkIndex(row, rows);
        MemorySegment block = csr.bytes();
        long regionAt = csr.offset();
        long[] span = span(block, regionAt, row, "row");
        long entriesAt = (rows + 1L) * POINTER_BYTES;
        List<Edge> out = new ArrayList<>((int) Math.min(span[1] - span[0], 64));
        for (long k = span[0]; k < span[1]; k++) {
            long at = entriesAt + k * EDGE_ENTRY_BYTES;
            long target = Integer.toUnsignedLong(block.get(U32, at + EDGE_TARGET));
            if (target >= (long) rows + foreignCount) {
                throw corrupt(regionAt + at, "edge " + k + " targets " + target + " but there are only "
                        + rows + " rows and " + foreignCount + " foreign ids");
            }
            IntentId targetId = target < rows ? id((int) target) : foreignId((int) (target - rows));
            out.add(new Edge(targetId, relation(block, regionAt, at, k), weight(block, regionAt, at, k)));
        }
        return out;
    }

    /**
     * The local rows with an edge to {@code target} (a row of this segment or a foreign id), by
     * source row then by position in the source's edge list. Empty when the segment has no
     * reverse block ({@link #hasReverseEdges()}).
     */
    public List<IncomingEdge> edgesTo(IntentId target) {
        if (csc == null) {
            return List.of();
        }
        int column = find(target);
        if (column < 0) {
            int foreign = foreignIndex(target);
            if (foreign < 0) {
                return List.of();
            }
            column = rows + foreign;
        }
        MemorySegment block = csc.bytes();
        long regionAt = csc.offset();
        long[] span = span(block, regionAt, column, "column");
        long entriesAt = ((long) rows + foreignCount + 1) * POINTER_BYTES;
        List<IncomingEdge> out = new ArrayList<>((int) Math.min(span[1] - span[0], 64));
        for (long k = span[0]; k < span[1]; k++) {
            long at = entriesAt + k * EDGE_ENTRY_BYTES;
            long source = Integer.toUnsignedLong(block.get(U32, at + EDGE_TARGET));
            if (source >= rows) {
                throw corrupt(regionAt + at, "reverse edge " + k + " has source " + source + " but there are only "
                        + rows + " rows");
            }
            out.add(new IncomingEdge((int) source, relation(block, regionAt, at, k), weight(block, regionAt, at, k)));
        }
        return out;
    }

    /** [start, end) of pointer pair {@code i}, checked to be ordered and within the edge count. */
    private long[] span(MemorySegment block, long regionAt, int i, String what) {
        long at = (long) i * POINTER_BYTES;
        long start = block.get(U64, at);
        long end = block.get(U64, at + POINTER_BYTES);
        if (start < 0 || start > end || end > edges) {
            throw corrupt(regionAt + at, what + " " + i + " has edge pointers " + Long.toUnsignedString(start)
                    + ".." + Long.toUnsignedString(end) + " outside 0.." + edges + " or out of order");
        }
        return new long[] {start, end};
    }

    private Relation relation(MemorySegment block, long regionAt, long at, long k) {
        int code = Byte.toUnsignedInt(block.get(U8, at + EDGE_RELATION));
        if (!Relation.isValidCode(code)) {
            throw corrupt(regionAt + at + EDGE_RELATION, "edge " + k + " has unknown relation code " + code);
        }
        return Relation.ofCode(code);
    }

    private float weight(MemorySegment block, long regionAt, long at, long k) {
        float w = block.get(F32, at + EDGE_WEIGHT);
        if (!Float.isFinite(w)) {
            throw corrupt(regionAt + at + EDGE_WEIGHT, "edge " + k + " has non-finite weight " + w);
        }
        return w;
    }

    // ---- verification -----------------------------------------------------------------------

    /**
     * Recomputes every region checksum and checks the whole structure.
     *
     * @throws CorruptionException describing the first problem found
     */
    public void verify() {
        new SegmentVerifier(this).run(true);
    }

    /** Like {@link #verify()}, but returns every problem found (at most one per check), in check order. */
    public List<CorruptionException> verifyAll() {
        return new SegmentVerifier(this).run(false);
    }

    /** Unmaps the file; later accesses fail with IllegalStateException. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            mapping.close();
        }
    }

    @Override
    public String toString() {
        return "SegmentReader{" + file + ", rows=" + rows + ", edges=" + edges + ", dtype=" + type.label()
                + ", dim=" + dimension + "}";
    }
}
