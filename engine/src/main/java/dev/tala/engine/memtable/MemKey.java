package dev.tala.engine.memtable;

import dev.tala.core.model.IntentId;

/**
 * A memtable key: ids ascending, and within one id the newest sequence number first, so the
 * first key at or after (id, s) is the newest version a reader at sequence s may see.
 */
record MemKey(IntentId id, long sequence) implements Comparable<MemKey> {
    @Override
    public int compareTo(MemKey o) {
        int c = id.compareTo(o.id);
        return c != 0 ? c : Long.compare(o.sequence, sequence);
    }
}
