package dev.tala.core.model;

/**
 * One version of an id as the storage engine keeps it: the sequence number that wrote it and
 * either the whole intent (a put) or nothing (a tombstone, which hides older versions).
 */
public record IntentVersion(IntentId id, long sequence, Intent intent) {
    public IntentVersion {
        if (id == null) {
            throw new IllegalArgumentException("id is null");
        }
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0, got " + sequence);
        }
        if (intent != null && !intent.id().equals(id)) {
            throw new IllegalArgumentException("version id " + id + " differs from intent id " + intent.id());
        }
    }

    public static IntentVersion put(long sequence, Intent intent) {
        return new IntentVersion(intent.id(), sequence, intent);
    }

    public static IntentVersion tombstone(IntentId id, long sequence) {
        return new IntentVersion(id, sequence, null);
    }

    public boolean isTombstone() {
        return intent == null;
    }
}
