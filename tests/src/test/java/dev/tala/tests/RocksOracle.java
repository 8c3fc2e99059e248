package dev.tala.tests;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDB as the reference for TalaDB's semantics: an intent per key (its id bytes, whose
 * bytewise order is TalaDB's id order), outcome updates as read-modify-write, batches through
 * RocksDB's own atomic WriteBatch.
 */
final class RocksOracle implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    /** One write of a batch, in the oracle's terms. */
    sealed interface Write {
        record Put(Intent intent) implements Write {
        }

        record Delete(IntentId id) implements Write {
        }

        record AttachOutcome(IntentId id, Status status, Outcome outcome) implements Write {
        }
    }

    private final Options options;
    private final RocksDB db;
    private final WriteOptions writeOptions = new WriteOptions();

    RocksOracle(Path dir) throws RocksDBException {
        this.options = new Options().setCreateIfMissing(true);
        this.db = RocksDB.open(options, dir.toString());
    }

    Optional<Intent> get(IntentId id) throws RocksDBException {
        byte[] v = db.get(IntentBytes.key(id));
        return v == null ? Optional.empty() : Optional.of(IntentBytes.decode(v));
    }

    /**
     * Applies the writes atomically; returns false (and applies nothing) if an outcome names an
     * id with no intent at that point of the batch.
     */
    boolean apply(List<Write> writes) throws RocksDBException {
        Map<IntentId, Optional<Intent>> overlay = new HashMap<>();
        try (WriteBatch batch = new WriteBatch()) {
            for (Write w : writes) {
                switch (w) {
                    case Write.Put p -> {
                        overlay.put(p.intent().id(), Optional.of(p.intent()));
                        batch.put(IntentBytes.key(p.intent().id()), IntentBytes.encode(p.intent()));
                    }
                    case Write.Delete d -> {
                        overlay.put(d.id(), Optional.empty());
                        batch.delete(IntentBytes.key(d.id()));
                    }
                    case Write.AttachOutcome o -> {
                        Optional<Intent> base = overlay.containsKey(o.id()) ? overlay.get(o.id()) : get(o.id());
                        if (base.isEmpty()) {
                            return false;
                        }
                        Intent updated = base.get().withOutcome(o.status(), o.outcome());
                        overlay.put(o.id(), Optional.of(updated));
                        batch.put(IntentBytes.key(o.id()), IntentBytes.encode(updated));
                    }
                }
            }
            db.write(writeOptions, batch);
            return true;
        }
    }

    /** Every intent, in key order. */
    List<Intent> all() {
        List<Intent> out = new ArrayList<>();
        try (RocksIterator it = db.newIterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(IntentBytes.decode(it.value()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        writeOptions.close();
        db.close();
        options.close();
    }
}
