package dev.tala.engine.memtable;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory, sorted buffer of recent versions. It keeps every version (not only the
 * newest), so a snapshot taken at an older sequence number reads exactly what existed then.
 *
 * <p>One writer at a time adds (the write path serializes them); any number of readers read
 * concurrently without locks. Once frozen it never changes again and is flushed to a segment.
 */
public final class MemTable {
    /** Bookkeeping bytes per version beyond its payload: skip-list node, key, record. */
    private static final long VERSION_OVERHEAD_BYTES = 160;

    private final ConcurrentSkipListMap<MemKey, IntentVersion> versions = new ConcurrentSkipListMap<>();
    private final EdgeSources edgeSources = new EdgeSources();
    private final ArrivalTimeIndex arrivals = new ArrivalTimeIndex();
    private final AtomicLong bytes = new AtomicLong();
    private final long firstWalNumber;
    private volatile long minSequence = Long.MAX_VALUE;
    private volatile long maxSequence;
    private volatile long minTimestamp = Long.MAX_VALUE;
    private volatile long maxTimestamp = -1;
    private volatile boolean frozen;
    private volatile boolean flushed;

    /**
     * @param firstWalNumber the oldest WAL file holding versions of this memtable: that file and
     *                       later ones must be kept until this memtable is flushed
     */
    public MemTable(long firstWalNumber) {
        this.firstWalNumber = firstWalNumber;
    }

    public long firstWalNumber() {
        return firstWalNumber;
    }

    public void add(IntentVersion version) {
        if (frozen) {
            throw new IllegalStateException("memtable is frozen");
        }
        versions.put(new MemKey(version.id(), version.sequence()), version);
        if (version.intent() != null) {
            long ts = version.intent().timestampNs();
            if (ts < minTimestamp) {
                minTimestamp = ts;
            }
            if (ts > maxTimestamp) {
                maxTimestamp = ts;
            }
            for (Edge e : version.intent().edges()) {
                edgeSources.add(e.target(), version.id());
            }
            arrivals.add(version);
        }
        bytes.addAndGet(estimateBytes(version));
        if (version.sequence() > maxSequence) {
            maxSequence = version.sequence();
        }
        if (version.sequence() < minSequence) {
            minSequence = version.sequence();
        }
    }

    /** The newest version of {@code id} with a sequence number at most {@code atSequence}, or null. */
    public IntentVersion get(IntentId id, long atSequence) {
        Map.Entry<MemKey, IntentVersion> e = versions.ceilingEntry(new MemKey(id, atSequence));
        return e != null && e.getKey().id().equals(id) ? e.getValue() : null;
    }

    /** The newest version of {@code id} of any sequence number, or null. */
    public IntentVersion newest(IntentId id) {
        return get(id, Long.MAX_VALUE);
    }

    /**
     * Ids that had an edge to {@code target} in some version held here: candidates only; the
     * caller checks the version it reads still has the edge.
     */
    public Collection<IntentId> edgeSourcesOf(IntentId target) {
        return edgeSources.of(target);
    }

    /** All versions in key order (id ascending, newest first within an id). */
    public NavigableMap<MemKey, IntentVersion> versions() {
        return versions;
    }

    /**
     * The intents with a timestamp in {@code [from, to)} that are the newest version of their id
     * at {@code sequence}, in the order they were added, found without walking the whole
     * memtable. An older version in the range does not count (it was overwritten, perhaps with
     * a timestamp outside it, or deleted), nor does a newer one the caller cannot see yet.
     */
    public List<IntentVersion> newestIn(long from, long to, long sequence) {
        List<IntentVersion> out = new ArrayList<>();
        arrivals.forEachIn(from, to, v -> {
            if (v.sequence() <= sequence && get(v.id(), sequence).sequence() == v.sequence()) {
                out.add(v);
            }
        });
        return out;
    }

    /** Versions with id at or after {@code from}, in key order. */
    public Iterator<IntentVersion> iterator(IntentId from) {
        return versions.tailMap(new MemKey(from, Long.MAX_VALUE), true).values().iterator();
    }

    /** The newest version of every id, sorted by id: what a flush writes. */
    public List<IntentVersion> newestVersions() {
        List<IntentVersion> out = new ArrayList<>();
        IntentId last = null;
        for (IntentVersion v : versions.values()) {
            if (!v.id().equals(last)) {
                out.add(v);
                last = v.id();
            }
        }
        return out;
    }

    public void freeze() {
        frozen = true;
    }

    public boolean isFrozen() {
        return frozen;
    }

    /** Called by the live state once this frozen memtable is in a segment, or held nothing to store. */
    public void markFlushed() {
        flushed = true;
    }

    /**
     * Whether this memtable reached a segment (or needed none). Leaving the pending list is not
     * the same: close() drops the pending memtables unflushed, their writes only in the WAL.
     */
    public boolean isFlushed() {
        return flushed;
    }

    public boolean isEmpty() {
        return versions.isEmpty();
    }

    public int versionCount() {
        return versions.size();
    }

    /** Approximate heap bytes held, for the size limit and for stats. */
    public long approximateBytes() {
        return bytes.get();
    }

    /**
     * False when no version here has a timestamp in [from, to), so time-bounded queries can skip
     * this memtable. (Bounds cover every version ever added, so they are safe, if loose.)
     */
    public boolean mayHoldTimestampsIn(long from, long to) {
        return maxTimestamp >= from && minTimestamp < to;
    }

    /** True when every version here has a timestamp in [from, to) (bounds as for {@link #mayHoldTimestampsIn}). */
    public boolean holdsOnlyTimestampsIn(long from, long to) {
        return minTimestamp >= from && maxTimestamp < to;
    }

    public long minSequence() {
        return minSequence;
    }

    /**
     * The highest sequence number logged into this memtable's span of the WAL, whether or not
     * it left a version here (an outcome skipped during a lenient replay leaves none). A flush
     * records it as the MANIFEST's last sequence, and replay requires the next WAL record to
     * follow it exactly, so it must not fall short of what the WAL holds.
     */
    public long maxSequence() {
        return maxSequence;
    }

    /** Notes that the WAL holds every sequence number up to {@code sequence} for this memtable. */
    public void noteLogged(long sequence) {
        if (sequence > maxSequence) {
            maxSequence = sequence;
        }
    }

    static long estimateBytes(IntentVersion v) {
        Intent i = v.intent();
        if (i == null) {
            return VERSION_OVERHEAD_BYTES;
        }
        long edges = 0;
        for (Edge ignored : i.edges()) {
            edges += 48;
        }
        return VERSION_OVERHEAD_BYTES + ArrivalTimeIndex.ENTRY_BYTES + 4L * i.dimension() + 2L * i.command().length()
                + 40 + edges;
    }
}
