package dev.tala.wal;

import dev.tala.core.error.CorruptionException;

/**
 * Sequence numbers are missing between two intact places: whole records were lost where no
 * checksum can see it. Either a WAL file ends early at a record boundary (the exception names
 * that file and where it ends), or the first record does not follow the MANIFEST's last
 * sequence number ({@link #belowFirstRecord()}), which recovery may blame on the MANIFEST.
 */
public final class WalHoleException extends CorruptionException {
    private final long firstMissing;
    private final long lastMissing;
    private final boolean belowFirstRecord;

    WalHoleException(String file, long offset, String what, long firstMissing, long lastMissing,
                     boolean belowFirstRecord) {
        super(file, offset, what);
        this.firstMissing = firstMissing;
        this.lastMissing = lastMissing;
        this.belowFirstRecord = belowFirstRecord;
    }

    public long firstMissing() {
        return firstMissing;
    }

    public long lastMissing() {
        return lastMissing;
    }

    /** True when the hole lies between the MANIFEST's last sequence and the first WAL record. */
    public boolean belowFirstRecord() {
        return belowFirstRecord;
    }
}
