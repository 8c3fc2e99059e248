package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.checksum.Crc32c;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.segment.format.RegionKind;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The eager, whole-file check behind {@link SegmentReader#verify()}: every region checksum, zero
 * padding between regions, and the structural invariants the writer guarantees (ids ascending,
 * dense embedding slots, monotone edge pointers, CSC equal to the transposed CSR, footer
 * statistics equal to what the rows say, bloom containing every id, index fences equal to the
 * ids they name). Each check stops at its first problem; checksums are reported per region.
 */
final class SegmentVerifier {
    private final SegmentReader reader;
    private final MemorySegment data;
    private final RegionDirectory directory;
    private final String file;
    private final int n;
    private final long e;
    private final int f;

    SegmentVerifier(SegmentReader reader) {
        this.reader = reader;
        this.data = reader.data();
        this.directory = reader.directory();
        this.file = reader.fileName();
        this.n = reader.rowCount();
        this.e = reader.edgeCount();
        this.f = reader.foreignIdCount();
    }

    private interface Check {
        void run();
    }

    /** Regions whose checksum check failed, so that later checks need not report them again. */
    private final Set<Integer> checksumFailed = new HashSet<>();

    List<CorruptionException> run(boolean failFast) {
        List<Check> checks = new ArrayList<>();
        for (RegionEntry entry : directory.entriesByOffset()) {
            checks.add(() -> checksum(entry));
        }
        checks.add(this::padding);
        checks.add(this::idsAscending);
        checks.add(this::rowsAndStatistics);
        checks.add(this::embeddings);
        checks.add(this::forwardEdges);
        checks.add(this::reverseEdges);
        checks.add(this::foreignIds);
        checks.add(this::stringTable);
        checks.add(this::bloom);
        checks.add(this::index);
        List<CorruptionException> problems = new ArrayList<>();
        for (Check c : checks) {
            CorruptionException problem = findingOf(c);
            if (problem != null) {
                if (failFast) {
                    throw problem;
                }
                problems.add(problem);
            }
        }
        return problems;
    }

    /** Runs one check: null when it passes, else what it found, reported rather than thrown. */
    private CorruptionException findingOf(Check c) {
        try {
            c.run();
            return null;
        } catch (CorruptionException problem) {
            return problem;
        } catch (InternalError unreadable) {
            // A guarded access to the mapping hit SIGBUS: a page the file system could not
            // supply (a sparse file on a full tmpfs, an I/O error).
            return corrupt(0, "a mapped page could not be read (" + unreadable.getMessage()
                    + "; a full tmpfs cannot supply a page of a sparse file, or an I/O error)");
        } catch (RuntimeException unexpected) {
            // Damage that the checks before did not name, tripping this one: a finding, so
            // that the other checks (and the other files of tala verify) still run.
            return new CorruptionException(file, 0, "unreadable (" + unexpected + ")", unexpected);
        }
    }

    private CorruptionException corrupt(long offset, String what) {
        return new CorruptionException(file, offset, what);
    }

    private MemorySegment region(RegionKind kind) {
        RegionEntry entry = directory.entry(kind);
        return data.asSlice(entry.offset(), entry.storedLength());
    }

    private long at(RegionKind kind) {
        return directory.entry(kind).offset();
    }

    private void checksum(RegionEntry entry) {
        int crc;
        try {
            crc = Crc32c.of(data, entry.offset(), entry.storedLength());
        } catch (UncheckedIOException e) {
            checksumFailed.add(entry.kind());
            throw corrupt(entry.offset(), entry.describe() + " could not be read: " + e.getCause().getMessage());
        }
        if (crc != entry.crc()) {
            checksumFailed.add(entry.kind());
            throw corrupt(entry.offset(), entry.describe() + " checksum mismatch (stored "
                    + SegmentHeader.hex(entry.crc()) + ", computed " + SegmentHeader.hex(crc) + ")");
        }
    }

    private void padding() {
        long from = HEADER_BYTES;
        for (RegionEntry entry : directory.entriesByOffset()) {
            zeroes(from, entry.offset());
            from = entry.end();
        }
        zeroes(from, reader.footerOffset());
    }

    private void zeroes(long from, long to) {
        for (long i = from; i < to; i++) {
            if (data.get(U8, i) != 0) {
                throw corrupt(i, "padding byte between regions is not zero");
            }
        }
    }

    private void idsAscending() {
        MemorySegment ids = region(RegionKind.IDS);
        for (int row = 1; row < n; row++) {
            long prev = (long) (row - 1) * ID_BYTES;
            long cur = (long) row * ID_BYTES;
            if (IdIndex.compare(ids, cur, ids.get(U64_BE, prev), ids.get(U64_BE, prev + 8)) <= 0) {
                throw corrupt(at(RegionKind.IDS) + cur, "id of row " + row
                        + " is not greater than the id of the row before it");
            }
        }
    }

    private void rowsAndStatistics() {
        MemorySegment flags = region(RegionKind.ROW_FLAGS);
        MemorySegment ts = region(RegionKind.TIMESTAMPS);
        MemorySegment ctx = region(RegionKind.CONTEXT_HASHES);
        MemorySegment conf = region(RegionKind.CONFIDENCES);
        MemorySegment status = region(RegionKind.STATUSES);
        MemorySegment seq = region(RegionKind.SEQUENCE);
        MemorySegment slots = region(RegionKind.EMBED_SLOT);
        MemorySegment refs = region(RegionKind.COMMAND_REF);
        MemorySegment latency = region(RegionKind.OUTCOME_LATENCY);
        MemorySegment exit = region(RegionKind.OUTCOME_EXIT_CODE);
        MemorySegment csr = region(RegionKind.CSR);
        long stringCount = directory.entry(RegionKind.STRING_TABLE).elementCount();
        long puts = 0;
        long minTs = Long.MAX_VALUE;
        long maxTs = Long.MIN_VALUE;
        long minSeq = Long.MAX_VALUE;
        long maxSeq = Long.MIN_VALUE;
        boolean anyOutcome = false;
        for (int row = 0; row < n; row++) {
            long w8 = (long) row * U64_BYTES;
            long w4 = (long) row * U32_BYTES;
            int rf = Byte.toUnsignedInt(flags.get(U8, row));
            if ((rf & ~ROW_FLAGS_KNOWN) != 0) {
                throw corrupt(at(RegionKind.ROW_FLAGS) + row, "row " + row + " has unknown row flags " + rf);
            }
            long sequence = seq.get(U64, w8);
            if (sequence < 0) {
                throw corrupt(at(RegionKind.SEQUENCE) + w8, "row " + row + " sequence exceeds 2^63-1");
            }
            minSeq = Math.min(minSeq, sequence);
            maxSeq = Math.max(maxSeq, sequence);
            long start = csr.get(U64, w8);
            long end = csr.get(U64, w8 + POINTER_BYTES);
            int slot = slots.get(U32, w4);
            long ref = Integer.toUnsignedLong(refs.get(U32, w4));
            if ((rf & ROW_FLAG_TOMBSTONE) != 0) {
                boolean zero = (rf & ROW_FLAG_HAS_OUTCOME) == 0 && ts.get(U64, w8) == 0 && ctx.get(U64, w8) == 0
                        && conf.get(U32, w4) == 0 && status.get(U8, row) == 0 && latency.get(U64, w8) == 0
                        && exit.get(U32, w4) == 0;
                if (!zero) {
                    throw corrupt(at(RegionKind.ROW_FLAGS) + row, "tombstone row " + row
                            + " has a non-zero field or an outcome");
                }
                if (slot != NONE_U32 || ref != Integer.toUnsignedLong(NONE_U32)) {
                    throw corrupt(at(RegionKind.EMBED_SLOT) + w4, "tombstone row " + row
                            + " has an embedding slot or command reference");
                }
                if (start != end) {
                    throw corrupt(at(RegionKind.CSR) + w8, "tombstone row " + row + " has edges");
                }
                continue;
            }
            long timestamp = ts.get(U64, w8);
            if (timestamp < 0) {
                throw corrupt(at(RegionKind.TIMESTAMPS) + w8, "row " + row + " timestamp exceeds 2^63-1");
            }
            float c = conf.get(F32, w4);
            if (!(c >= 0f && c <= 1f)) {
                throw corrupt(at(RegionKind.CONFIDENCES) + w4, "row " + row + " confidence " + c + " is outside [0, 1]");
            }
            int code = Byte.toUnsignedInt(status.get(U8, row));
            if (!Status.isValidCode(code)) {
                throw corrupt(at(RegionKind.STATUSES) + row, "row " + row + " has unknown status code " + code);
            }
            if (Integer.toUnsignedLong(slot) != puts) {
                throw corrupt(at(RegionKind.EMBED_SLOT) + w4, "row " + row + " has embedding slot "
                        + Integer.toUnsignedString(slot) + ", expected " + puts + " (slots are dense in row order)");
            }
            if (ref >= stringCount) {
                throw corrupt(at(RegionKind.COMMAND_REF) + w4, "row " + row + " refers to string " + ref
                        + " but the table holds " + stringCount);
            }
            if ((rf & ROW_FLAG_HAS_OUTCOME) != 0) {
                anyOutcome = true;
                if (latency.get(U64, w8) < 0) {
                    throw corrupt(at(RegionKind.OUTCOME_LATENCY) + w8, "row " + row + " outcome latency exceeds 2^63-1");
                }
            } else if (latency.get(U64, w8) != 0 || exit.get(U32, w4) != 0) {
                throw corrupt(at(RegionKind.OUTCOME_LATENCY) + w8, "row " + row + " has no outcome but non-zero outcome fields");
            }
            minTs = Math.min(minTs, timestamp);
            maxTs = Math.max(maxTs, timestamp);
            puts++;
        }
        Footer footer = reader.footer();
        long fo = reader.footerOffset();
        if (puts != footer.putCount()) {
            throw corrupt(fo + F_PUT_COUNT, "footer put_count " + footer.putCount() + " but " + puts + " rows are puts");
        }
        if (puts == 0) {
            minTs = 0;
            maxTs = 0;
        }
        if (n == 0) {
            minSeq = 0;
            maxSeq = 0;
        }
        if (footer.minTimestamp() != minTs || footer.maxTimestamp() != maxTs) {
            throw corrupt(fo + F_MIN_TIMESTAMP, "footer timestamp range " + footer.minTimestamp() + ".."
                    + footer.maxTimestamp() + " differs from the rows' " + minTs + ".." + maxTs);
        }
        if (footer.minSequence() != minSeq || footer.maxSequence() != maxSeq) {
            throw corrupt(fo + F_MIN_SEQUENCE, "footer sequence range " + footer.minSequence() + ".."
                    + footer.maxSequence() + " differs from the rows' " + minSeq + ".." + maxSeq);
        }
        if (reader.header().hasOutcomes() != anyOutcome) {
            throw corrupt(H_FLAGS, "header has_outcomes flag disagrees with the rows");
        }
    }

    private void embeddings() {
        MemorySegment region = region(RegionKind.EMBEDDINGS);
        EmbeddingType type = reader.dtype();
        int dim = reader.dimension();
        long stride = reader.stride();
        long used = type.vectorBytes(dim);
        float[] values = new float[dim];
        for (int slot = 0; slot < reader.putCount(); slot++) {
            long base = slot * stride;
            for (long i = used; i < stride; i++) {
                if (region.get(U8, base + i) != 0) {
                    throw corrupt(at(RegionKind.EMBEDDINGS) + base + i, "padding after vector " + slot + " is not zero");
                }
            }
            if (type == EmbeddingType.INT8) {
                float scale = region.get(F32, base + INT8_SCALE);
                float zero = region.get(F32, base + INT8_ZERO_POINT);
                if (!Float.isFinite(scale) || !Float.isFinite(zero)) {
                    throw corrupt(at(RegionKind.EMBEDDINGS) + base, "vector " + slot + " has a non-finite int8 scale or zero point");
                }
            }
            EmbeddingCodec.decode(type, region, base, dim, values);
            for (int i = 0; i < dim; i++) {
                if (!Float.isFinite(values[i])) {
                    throw corrupt(at(RegionKind.EMBEDDINGS) + base, "vector " + slot + " value " + i + " is not finite");
                }
            }
        }
    }

    private void pointers(MemorySegment block, long regionAt, long count, String what) {
        pointers(block, regionAt, count, what, Long.MAX_VALUE);
    }

    /** Also checks that no entry spans more than {@code maxSpan} edges (a row's own edges are limited). */
    private void pointers(MemorySegment block, long regionAt, long count, String what, long maxSpan) {
        long previous = 0;
        for (long i = 0; i <= count; i++) {
            long p = block.get(U64, i * POINTER_BYTES);
            boolean ok = i == 0 ? p == 0 : p >= previous && p <= e;
            if (!ok || (i == count && p != e)) {
                throw corrupt(regionAt + i * POINTER_BYTES, what + " pointer " + i + " is "
                        + Long.toUnsignedString(p) + ": pointers must start at 0, never decrease and end at " + e);
            }
            if (i > 0 && p - previous > maxSpan) {
                throw corrupt(regionAt + i * POINTER_BYTES, what + " " + (i - 1) + " has " + (p - previous)
                        + " edges, the limit is " + maxSpan);
            }
            previous = p;
        }
    }

    private void entry(MemorySegment block, long regionAt, long at, long k, long limit, String what) {
        long target = Integer.toUnsignedLong(block.get(U32, at + EDGE_TARGET));
        if (target >= limit) {
            throw corrupt(regionAt + at, what + " " + k + " refers to " + target + ", limit " + limit);
        }
        if (!Relation.isValidCode(Byte.toUnsignedInt(block.get(U8, at + EDGE_RELATION)))) {
            throw corrupt(regionAt + at + EDGE_RELATION, what + " " + k + " has an unknown relation code");
        }
        if (!Float.isFinite(block.get(F32, at + EDGE_WEIGHT))) {
            throw corrupt(regionAt + at + EDGE_WEIGHT, what + " " + k + " has a non-finite weight");
        }
        for (int i = 0; i < EDGE_PADDING_BYTES; i++) {
            if (block.get(U8, at + EDGE_PADDING + i) != 0) {
                throw corrupt(regionAt + at + EDGE_PADDING + i, what + " " + k + " padding is not zero");
            }
        }
    }

    private void forwardEdges() {
        MemorySegment csr = region(RegionKind.CSR);
        long regionAt = at(RegionKind.CSR);
        pointers(csr, regionAt, n, "CSR row", IntentLimits.MAX_EDGES);
        long entriesAt = (n + 1L) * POINTER_BYTES;
        for (long k = 0; k < e; k++) {
            entry(csr, regionAt, entriesAt + k * EDGE_ENTRY_BYTES, k, (long) n + f, "edge");
        }
    }

    private void reverseEdges() {
        if (!reader.hasReverseEdges()) {
            return;
        }
        MemorySegment csc = region(RegionKind.CSC);
        long regionAt = at(RegionKind.CSC);
        int columns = n + f;
        pointers(csc, regionAt, columns, "CSC column");
        long cscEntries = (columns + 1L) * POINTER_BYTES;
        for (long k = 0; k < e; k++) {
            entry(csc, regionAt, cscEntries + k * EDGE_ENTRY_BYTES, k, n, "reverse edge");
        }
        // The CSC must be exactly the transpose of the CSR, entry for entry.
        MemorySegment csr = region(RegionKind.CSR);
        pointers(csr, at(RegionKind.CSR), n, "CSR row");
        long csrEntries = (n + 1L) * POINTER_BYTES;
        long[] cursor = new long[columns];
        for (int c = 0; c < columns; c++) {
            cursor[c] = csc.get(U64, (long) c * POINTER_BYTES);
        }
        for (int row = 0; row < n; row++) {
            long start = csr.get(U64, (long) row * POINTER_BYTES);
            long end = csr.get(U64, (row + 1L) * POINTER_BYTES);
            for (long k = start; k < end; k++) {
                long forward = csrEntries + k * EDGE_ENTRY_BYTES;
                int column = csr.get(U32, forward + EDGE_TARGET);
                if (column < 0 || column >= columns) {
                    throw corrupt(at(RegionKind.CSR) + forward, "edge " + k + " target is out of range");
                }
                long position = cursor[column]++;
                long columnEnd = csc.get(U64, (column + 1L) * POINTER_BYTES);
                long reverse = cscEntries + position * EDGE_ENTRY_BYTES;
                if (position >= columnEnd
                        || csc.get(U32, reverse + EDGE_TARGET) != row
                        || csc.get(U8, reverse + EDGE_RELATION) != csr.get(U8, forward + EDGE_RELATION)
                        || csc.get(U32, reverse + EDGE_WEIGHT) != csr.get(U32, forward + EDGE_WEIGHT)) {
                    throw corrupt(regionAt + (position < columnEnd ? reverse : (long) column * POINTER_BYTES), "reverse edges of column "
                            + column + " are not the transpose of the forward edge " + k + " from row " + row);
                }
            }
        }
    }

    private void foreignIds() {
        MemorySegment ids = region(RegionKind.IDS);
        MemorySegment foreign = region(RegionKind.FOREIGN_IDS);
        for (int i = 0; i < f; i++) {
            long cur = (long) i * ID_BYTES;
            long msb = foreign.get(U64_BE, cur);
            long lsb = foreign.get(U64_BE, cur + 8);
            if (i > 0 && IdIndex.compare(foreign, cur - ID_BYTES, msb, lsb) >= 0) {
                throw corrupt(at(RegionKind.FOREIGN_IDS) + cur, "foreign id " + i
                        + " is not greater than the one before it");
            }
            if (contains(ids, msb, lsb)) {
                throw corrupt(at(RegionKind.FOREIGN_IDS) + cur, "foreign id " + i + " is a row of this segment");
            }
        }
    }

    private boolean contains(MemorySegment ids, long msb, long lsb) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = IdIndex.compare(ids, (long) mid * ID_BYTES, msb, lsb);
            if (c == 0) {
                return true;
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return false;
    }

    private void stringTable() {
        if (checksumFailed.contains(RegionKind.STRING_TABLE.code())) {
            return; // decoding it would only report the same checksum again, in other words
        }
        StringTable table = reader.strings();
        for (int i = 0; i < table.count(); i++) {
            table.getStrict(i);
        }
    }

    private void bloom() {
        BloomFilter bloom = reader.bloomFilter();
        long bits = BloomFilter.numBitsFor(n);
        if (bloom.numBits() != bits || bloom.numHashes() != BloomFilter.numHashesFor(n, bits)) {
            throw corrupt(at(RegionKind.BLOOM), "bloom filter has " + bloom.numBits() + " bits and "
                    + bloom.numHashes() + " hashes; " + n + " ids call for " + bits + " and "
                    + BloomFilter.numHashesFor(n, bits));
        }
        // Ids are read raw: a damaged ids column is the checksum check's finding, not this one's.
        MemorySegment ids = region(RegionKind.IDS);
        for (int row = 0; row < n; row++) {
            if (!bloom.mightContain(IntentId.readFrom(ids, (long) row * ID_BYTES))) {
                throw corrupt(at(RegionKind.BLOOM), "bloom filter lacks the id of row " + row);
            }
        }
    }

    private void index() {
        IdIndex index = reader.uncheckedIdIndex();
        MemorySegment ids = region(RegionKind.IDS);
        for (int b = 0; b < index.blockCount(); b++) {
            long row = (long) b * index.blockRows();
            if (!index.fence(b).equals(IntentId.readFrom(ids, row * ID_BYTES))) {
                throw corrupt(at(RegionKind.INDEX) + INDEX_FENCES + (long) b * ID_BYTES, "index fence " + b
                        + " differs from the id of row " + row);
            }
        }
    }
}
