package dev.tala.segment;

import static dev.tala.segment.format.TbfFormat.EDGE_ENTRY_BYTES;
import static dev.tala.segment.format.TbfFormat.ID_BYTES;
import static dev.tala.segment.format.TbfFormat.POINTER_BYTES;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The edges of a segment being written, in CSR order (rows ascending, each row's edges in the
 * order of its intent's list), with targets resolved to row numbers or, for ids outside the
 * segment, to N + their index in the sorted foreign-id table; plus, on request, the transposed
 * CSC order over the N + F columns.
 */
final class EdgeBlock {
    final int nodeCount;
    final long[] rowPointers;
    final int[] targets;
    final byte[] relations;
    final float[] weights;
    final IntentId[] foreignIds;
    /** Null when no reverse block is written. */
    final long[] columnPointers;
    /** For CSC position j: the CSR entry it mirrors; its source row is found via {@link #sources}. */
    final int[] cscEntry;
    final int[] sources;

    private EdgeBlock(int nodeCount, long[] rowPointers, int[] targets, byte[] relations, float[] weights,
            IntentId[] foreignIds, long[] columnPointers, int[] cscEntry, int[] sources) {
        this.nodeCount = nodeCount;
        this.rowPointers = rowPointers;
        this.targets = targets;
        this.relations = relations;
        this.weights = weights;
        this.foreignIds = foreignIds;
        this.columnPointers = columnPointers;
        this.cscEntry = cscEntry;
        this.sources = sources;
    }

    static EdgeBlock build(SegmentRows input, SegmentWriter.Rows rows, boolean reverse) {
        IntentId[] ids = rows.ids;
        int n = ids.length;
        List<List<Edge>> edgesOf = new ArrayList<>(n);
        long total = 0;
        for (int row = 0; row < n; row++) {
            List<Edge> edges = rows.tombstone[row] ? List.of() : input.edges(row);
            edgesOf.add(edges);
            total += edges.size();
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a segment holds at most " + (Integer.MAX_VALUE - 16)
                    + " edges, got " + total);
        }
        int e = (int) total;
        IntentId[] foreign = collectForeign(edgesOf, ids);
        if ((long) n + foreign.length > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("too many rows and foreign edge targets for one segment");
        }
        long[] rowPointers = new long[n + 1];
        int[] targets = new int[e];
        byte[] relations = new byte[e];
        float[] weights = new float[e];
        int k = 0;
        for (int row = 0; row < n; row++) {
            rowPointers[row] = k;
            for (Edge edge : edgesOf.get(row)) {
                int local = Arrays.binarySearch(ids, edge.target());
                targets[k] = local >= 0 ? local : n + Arrays.binarySearch(foreign, edge.target());
                relations[k] = edge.relation().code();
                weights[k] = edge.weight();
                k++;
            }
        }
        rowPointers[n] = k;
        if (!reverse) {
            return new EdgeBlock(n, rowPointers, targets, relations, weights, foreign, null, null, null);
        }
        int columns = n + foreign.length;
        long[] columnPointers = new long[columns + 1];
        for (int t : targets) {
            columnPointers[t + 1]++;
        }
        for (int c = 0; c < columns; c++) {
            columnPointers[c + 1] += columnPointers[c];
        }
        long[] cursor = Arrays.copyOf(columnPointers, columns);
        int[] cscEntry = new int[e];
        int[] sources = new int[e];
        for (int row = 0; row < n; row++) {
            for (long j = rowPointers[row]; j < rowPointers[row + 1]; j++) {
                int position = (int) cursor[targets[(int) j]]++;
                cscEntry[position] = (int) j;
                sources[position] = row;
            }
        }
        return new EdgeBlock(n, rowPointers, targets, relations, weights, foreign, columnPointers, cscEntry, sources);
    }

    private static IntentId[] collectForeign(List<List<Edge>> edgesOf, IntentId[] ids) {
        IntentId[] all = edgesOf.stream()
                .flatMap(List::stream)
                .map(Edge::target)
                .filter(t -> Arrays.binarySearch(ids, t) < 0)
                .sorted()
                .distinct()
                .toArray(IntentId[]::new);
        return all;
    }

    int edgeCount() {
        return targets.length;
    }

    boolean hasReverse() {
        return columnPointers != null;
    }

    long csrLength() {
        return (nodeCount + 1L) * POINTER_BYTES + (long) targets.length * EDGE_ENTRY_BYTES;
    }

    long cscLength() {
        return (nodeCount + foreignIds.length + 1L) * POINTER_BYTES + (long) targets.length * EDGE_ENTRY_BYTES;
    }

    long foreignLength() {
        return (long) foreignIds.length * ID_BYTES;
    }
}
