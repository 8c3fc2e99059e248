package dev.tala.engine.read;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.segment.SegmentReader;

/**
 * Finds the newest version of an id visible at a sequence number: memtables first (newest
 * first), then segments newest first, each screened by its bloom filter and searched by its id
 * index. The first version found wins, tombstone or not: sequence ranges never overlap, so it
 * is the newest.
 */
public final class PointLookup {
    private PointLookup() {
    }

    /** The newest version of {@code id} at or below {@code sequence}, or null if there is none. */
    public static IntentVersion find(ReadView view, IntentId id, long sequence) {
        IntentVersion v = view.active().get(id, sequence);
        if (v != null) {
            return v;
        }
        for (MemTable m : view.immutables()) {
            v = m.get(id, sequence);
            if (v != null) {
                return v;
            }
        }
        for (SegmentHandle s : view.segments()) {
            SegmentReader reader = s.reader();
            if (reader.mightContain(id)) {
                int row = reader.find(id);
                if (row >= 0) {
                    return reader.version(row);
                }
            }
        }
        return null;
    }

    /**
     * The newest version of {@code id} of any sequence number, including writes not yet
     * acknowledged: what the write path resolves an outcome update against, under its lock.
     */
    public static IntentVersion findLatest(ReadView view, IntentId id) {
        return find(view, id, Long.MAX_VALUE);
    }
}
