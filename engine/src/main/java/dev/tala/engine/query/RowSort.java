package dev.tala.engine.query;

/**
 * Sorts rows by timestamp, keeping rows with equal timestamps in their given (id) order: a
 * stable merge sort over two parallel primitive arrays, without boxing.
 */
final class RowSort {
    private RowSort() {
    }

    static void byTimestamp(int[] rows, long[] timestamps) {
        int n = rows.length;
        if (n < 2) {
            return;
        }
        int[] rowBuf = new int[n];
        long[] tsBuf = new long[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n - width; lo += 2 * width) {
                merge(rows, timestamps, rowBuf, tsBuf, lo, lo + width, Math.min(lo + 2 * width, n));
            }
        }
    }

    private static void merge(int[] rows, long[] ts, int[] rowBuf, long[] tsBuf, int lo, int mid, int hi) {
        if (ts[mid - 1] <= ts[mid]) {
            return; // already in order, the common case for time-ordered ids
        }
        System.arraycopy(rows, lo, rowBuf, lo, hi - lo);
        System.arraycopy(ts, lo, tsBuf, lo, hi - lo);
        int i = lo;
        int j = mid;
        for (int k = lo; k < hi; k++) {
            if (j >= hi || (i < mid && tsBuf[i] <= tsBuf[j])) {
                rows[k] = rowBuf[i];
                ts[k] = tsBuf[i++];
            } else {
                rows[k] = rowBuf[j];
                ts[k] = tsBuf[j++];
            }
        }
    }
}
