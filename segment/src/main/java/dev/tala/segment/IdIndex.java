package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.*;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.model.IntentId;
import java.lang.foreign.MemorySegment;

/**
 * The id index: the first id of every block of {@code block_rows} rows. A lookup binary-searches
 * these fences, then the ids column inside one block, so it touches O(log n) cache lines and
 * never the rest of the column.
 */
public final class IdIndex {
    private final MemorySegment region;
    private final long regionOffset;
    private final MemorySegment ids;
    private final long idsOffset;
    private final int rows;
    private final int blockRows;
    private final int blockCount;
    private final String file;

    private IdIndex(MemorySegment region, long regionOffset, MemorySegment ids, long idsOffset, int rows,
            int blockRows, int blockCount, String file) {
        this.region = region;
        this.regionOffset = regionOffset;
        this.ids = ids;
        this.idsOffset = idsOffset;
        this.rows = rows;
        this.blockRows = blockRows;
        this.blockCount = blockCount;
        this.file = file;
    }

    public static int blockCountFor(long rows, int blockRows) {
        return (int) ((rows + blockRows - 1) / blockRows);
    }

    public static long lengthFor(long rows) {
        return INDEX_HEAD_BYTES + (long) blockCountFor(rows, INDEX_BLOCK_ROWS) * ID_BYTES;
    }

    /** The stored index for ids sorted ascending. */
    public static byte[] build(IntentId[] sortedIds) {
        int blocks = blockCountFor(sortedIds.length, INDEX_BLOCK_ROWS);
        byte[] bytes = new byte[Math.toIntExact(lengthFor(sortedIds.length))];
        MemorySegment s = MemorySegment.ofArray(bytes);
        s.set(U32, INDEX_BLOCK_ROWS_FIELD, INDEX_BLOCK_ROWS);
        s.set(U32, INDEX_BLOCK_COUNT, blocks);
        for (int b = 0; b < blocks; b++) {
            sortedIds[b * INDEX_BLOCK_ROWS].writeTo(s, INDEX_FENCES + (long) b * ID_BYTES);
        }
        return bytes;
    }

    /**
     * A view over the stored index {@code region} (at file offset {@code regionOffset}) and the ids
     * column {@code ids} of {@code rows} rows (at {@code idsOffset}).
     */
    public static IdIndex view(MemorySegment region, long regionOffset, long elementCount, MemorySegment ids,
            long idsOffset, int rows, String file) {
        if (region.byteSize() < INDEX_HEAD_BYTES) {
            throw new CorruptionException(file, regionOffset, "index region is " + region.byteSize()
                    + " bytes, shorter than its head");
        }
        int blockRows = region.get(U32, INDEX_BLOCK_ROWS_FIELD);
        if (blockRows < 1) {
            throw new CorruptionException(file, regionOffset + INDEX_BLOCK_ROWS_FIELD, "index block_rows "
                    + Integer.toUnsignedString(blockRows) + " is not plausible");
        }
        long blockCount = Integer.toUnsignedLong(region.get(U32, INDEX_BLOCK_COUNT));
        if (blockCount != blockCountFor(rows, blockRows)) {
            throw new CorruptionException(file, regionOffset + INDEX_BLOCK_COUNT, "index block_count "
                    + blockCount + ", expected " + blockCountFor(rows, blockRows) + " for " + rows + " rows");
        }
        if (region.byteSize() != INDEX_HEAD_BYTES + blockCount * ID_BYTES || elementCount != blockCount) {
            throw new CorruptionException(file, regionOffset, "index region length " + region.byteSize()
                    + " or element_count " + Long.toUnsignedString(elementCount) + " disagrees with "
                    + blockCount + " blocks");
        }
        return new IdIndex(region, regionOffset, ids, idsOffset, rows, blockRows, (int) blockCount, file);
    }

    public int blockRows() {
        return blockRows;
    }

    public int blockCount() {
        return blockCount;
    }

    /** The first id of block {@code b} as stored in the index. */
    public IntentId fence(int b) {
        return IntentId.readFrom(region, INDEX_FENCES + (long) b * ID_BYTES);
    }

    /**
     * The row holding {@code id}, or -1.
     *
     * @throws CorruptionException if the fence used disagrees with the ids column
     */
    public int find(IntentId id) {
        long msb = id.mostSignificantBits();
        long lsb = id.leastSignificantBits();
        // Upper bound over fences: the first block whose fence is greater than id.
        int lo = 0;
        int hi = blockCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(region, INDEX_FENCES + (long) mid * ID_BYTES, msb, lsb) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int block = lo - 1;
        if (block < 0) {
            return -1;
        }
        int first = block * blockRows;
        long fenceAt = INDEX_FENCES + (long) block * ID_BYTES;
        // One comparison keeps a damaged fence or column from turning into a silent miss.
        if (region.get(U64_BE, fenceAt) != ids.get(U64_BE, (long) first * ID_BYTES)
                || region.get(U64_BE, fenceAt + 8) != ids.get(U64_BE, (long) first * ID_BYTES + 8)) {
            throw new CorruptionException(file, regionOffset + fenceAt, "index fence of block " + block
                    + " differs from the id of row " + first + " at offset " + (idsOffset + (long) first * ID_BYTES));
        }
        int low = first;
        int high = (int) Math.min(rows, (long) first + blockRows) - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int c = compare(ids, (long) mid * ID_BYTES, msb, lsb);
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** Compares the big-endian id stored at {@code s[at]} with (msb, lsb), unsigned. */
    static int compare(MemorySegment s, long at, long msb, long lsb) {
        int c = Long.compareUnsigned(s.get(U64_BE, at), msb);
        return c != 0 ? c : Long.compareUnsigned(s.get(U64_BE, at + 8), lsb);
    }
}
