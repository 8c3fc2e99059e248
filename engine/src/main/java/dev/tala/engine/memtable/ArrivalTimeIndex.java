package dev.tala.engine.memtable;

import dev.tala.core.model.IntentVersion;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The versions of a memtable that hold an intent, in the order they arrived, so that a time-range
 * scan can skip to the part of the memtable its range covers instead of walking every version.
 *
 * <p>Intents mostly arrive in timestamp order (their timestamps come from a clock when they are
 * written), though not exactly: concurrent writers and replayed or backfilled intents arrive a
 * little or a lot late. So the index keeps, beside each version, the largest timestamp seen up to
 * it (a running maximum, which never decreases and can be binary-searched), and remembers the
 * most any version has arrived behind the running maximum (its lateness). A version's timestamp
 * is then never below its running maximum minus that lateness, which bounds where a range's
 * versions can be: from the first running maximum at or past the range's start, to the first
 * running maximum that, less the lateness, is past its end. With timestamps in order the bound
 * is tight; one very late intent widens it for every later scan of this memtable, down to a walk
 * of its whole tail, which is what a scan cost before.
 *
 * <p>One writer adds (the memtable's); readers read without locks. A reader takes the published
 * size first and then the arrays, which always hold at least that many entries.
 */
final class ArrivalTimeIndex {
    private static final int INITIAL_CAPACITY = 1024;
    /**
     * Heap bytes an entry may cost, for the memtable's size estimate: a reference and a long (12
     * bytes with compressed references), and as much again free just after the arrays double.
     */
    static final long ENTRY_BYTES = 24;

    /** The entries; replaced by a larger copy when full. */
    private record Entries(IntentVersion[] versions, long[] runningMax) {
    }

    private volatile Entries entries = new Entries(new IntentVersion[INITIAL_CAPACITY], new long[INITIAL_CAPACITY]);
    /** Entries readers may read; written last by {@link #add}, so it publishes what came before. */
    private volatile int size;
    /** The most any entry's timestamp is below the running maximum before it. */
    private volatile long lateness;

    /** Called by the memtable's single writer, for a version that holds an intent. */
    void add(IntentVersion version) {
        long timestamp = version.intent().timestampNs();
        int n = size;
        Entries e = entries;
        if (n == e.versions.length) {
            e = new Entries(Arrays.copyOf(e.versions, n * 2), Arrays.copyOf(e.runningMax, n * 2));
            entries = e;
        }
        long max = n == 0 ? timestamp : Math.max(e.runningMax[n - 1], timestamp);
        if (max - timestamp > lateness) {
            lateness = max - timestamp;
        }
        e.versions[n] = version;
        e.runningMax[n] = max;
        size = n + 1;
    }

    /**
     * Hands {@code consumer} every version added so far whose timestamp is in {@code [from, to)},
     * in arrival order, which is not timestamp order when some arrived late.
     */
    void forEachIn(long from, long to, Consumer<IntentVersion> consumer) {
        int n = size;
        long late = lateness;
        Entries e = entries;
        int start = firstAtLeast(e.runningMax, n, from);
        for (int i = start; i < n && e.runningMax[i] - late < to; i++) {
            IntentVersion v = e.versions[i];
            long timestamp = v.intent().timestampNs();
            if (timestamp >= from && timestamp < to) {
                consumer.accept(v);
            }
        }
    }

    /** The first index below {@code n} whose running maximum is at least {@code value}, or {@code n}. */
    private static int firstAtLeast(long[] runningMax, int n, long value) {
        int low = 0;
        int high = n;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (runningMax[mid] < value) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
