package dev.tala.core.checksum;

/**
 * How much a search for the next intact record after damage (a WAL record, a MANIFEST edit) may
 * checksum before it gives up. The search tries every offset, and checks a candidate's payload
 * only where the candidate's own header checksum matches, which a random offset does once in
 * 2^32. A file built so that it matches everywhere, each header claiming a payload to the end of
 * the file, would make the search quadratic in the file's size; the budget caps it at the
 * payloads of four file sizes plus 1 MiB, far more than the real records of a file can claim.
 */
public final class ResyncBudget {
    private long left;

    /** A budget for the searches through a file of {@code fileSize} bytes (one, or all of a replay's). */
    public ResyncBudget(long fileSize) {
        left = 4 * fileSize + (1L << 20);
    }

    /**
     * Charges a candidate whose header claims a payload of {@code length} bytes, where the file
     * has {@code room} bytes after the header and a payload may hold at most {@code max}. A
     * length past either is refused without being read, so it costs nothing (a torn write's
     * surviving header often claims such a payload).
     *
     * @return false once the budget is spent: the search should give up undecided
     */
    public boolean charge(long length, long room, long max) {
        if (length <= max && length <= room) {
            left -= length;
        }
        return left >= 0;
    }
}
