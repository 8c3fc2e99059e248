package dev.tala.engine.read;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.memtable.MemTable;
import java.util.Iterator;

/** The newest version at or below a sequence number of each id in a memtable, in id order. */
final class MemTableCursor implements VersionCursor {
    private final Iterator<IntentVersion> it;
    private final long sequence;
    private IntentVersion current;

    MemTableCursor(MemTable memtable, long sequence) {
        this.it = memtable.versions().values().iterator();
        this.sequence = sequence;
        advance();
    }

    @Override
    public boolean valid() {
        return current != null;
    }

    @Override
    public IntentId id() {
        return current.id();
    }

    @Override
    public boolean isTombstone() {
        return current.isTombstone();
    }

    @Override
    public IntentVersion version() {
        return current;
    }

    @Override
    public void advance() {
        IntentId previous = current == null ? null : current.id();
        current = null;
        while (it.hasNext()) {
            IntentVersion v = it.next();
            // Versions of one id come newest first: take the first one the reader may see.
            if (!v.id().equals(previous) && v.sequence() <= sequence) {
                current = v;
                return;
            }
        }
    }
}
