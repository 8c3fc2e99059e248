package dev.tala.tests.corruption;

/**
 * Product issues this suite found and could not fix (product code belongs to other modules).
 * Each one waives only the check it explains, and only for the exact damage that triggers it;
 * every other check still runs on those cases (in particular, every read must still equal the
 * model of what recovery kept, or be refused). Remove an entry once the product is fixed: its
 * cases then fail until the waiver goes.
 */
enum KnownIssue {
    /**
     * Bytes 6-7 of the WAL and MANIFEST file headers (the reserved u16 of docs/FORMAT.md) are
     * covered by no checksum and never checked by WalFileScanner.checkFileHeader or
     * ManifestReader.read, so a flipped bit there is reported by neither open nor verify.
     * Harmless today (nothing reads the field), but it breaks "a flipped bit is detected".
     */
    LOG_HEADER_RESERVED_UNCHECKED,

    /**
     * An older WAL file cut exactly at a record boundary looks complete. WalReplayer only checks
     * that sequence numbers increase ("sequence N does not follow M"), not that they are
     * contiguous, although every write takes the next numbers. So the next file's records are
     * replayed on top of the hole: acknowledged SYNC writes vanish, deleted intents and older
     * versions come back, later outcome updates land on the wrong version, and open, the
     * recovery report and verify all say nothing.
     */
    OLDER_WAL_CUT_AT_RECORD_BOUNDARY,

    /**
     * The newest WAL file cut exactly at a record boundary (or to just its header) is
     * indistinguishable from a database that never received those writes: nothing records how
     * far the file went. The acknowledged writes after the cut are lost without a report. A
     * limitation of the format rather than a slip; the state left is still a consistent prefix
     * of the history, which the suite checks.
     */
    NEWEST_WAL_CUT_AT_RECORD_BOUNDARY,

    /**
     * A damaged or truncated MANIFEST whose damage starts in an edit whose WAL files were
     * already deleted is taken for a torn last edit (RECOVERY.md: "the WAL still holds its
     * data"), but the WAL no longer holds it. Open succeeds, the orphaned segments go to
     * {@code lost/} (reported), and the database serves older versions and deleted intents as if
     * current, with later WAL records replayed on top. RECOVERY.md allows only the lost ids to go
     * missing. Detectable: the first replayed WAL record does not follow the MANIFEST's
     * last_sequence (a sequence gap), which a real torn edit never leaves.
     */
    MANIFEST_TAIL_ROLLBACK;

    /** The issue that explains why verify did not report {@code d}, or null. */
    static KnownIssue explainingUnreported(Damage d) {
        return inReservedHeaderBytes(d) ? LOG_HEADER_RESERVED_UNCHECKED : explainingSilentLoss(d);
    }

    /** The issue that explains why {@code d} ended as {@code end}, which RECOVERY.md does not allow, or null. */
    static KnownIssue explainingEnd(Damage d, CaseResult.End end) {
        if (end == CaseResult.End.READS_RIGHT && inReservedHeaderBytes(d)) {
            return LOG_HEADER_RESERVED_UNCHECKED;
        }
        return end == CaseResult.End.LOSS_SILENT ? explainingSilentLoss(d) : null;
    }

    /** The issue that explains why writes were dropped without a report (or from an older WAL), or null. */
    static KnownIssue explainingSilentLoss(Damage d) {
        if (d.mode() != Damage.Mode.TRUNCATE || !d.atBoundary()) {
            return null;
        }
        return switch (d.kind()) {
            case OLDER_WAL -> OLDER_WAL_CUT_AT_RECORD_BOUNDARY;
            case NEWEST_WAL -> NEWEST_WAL_CUT_AT_RECORD_BOUNDARY;
            default -> null;
        };
    }

    /**
     * The issue that explains ids reading as older versions after recovery dropped the tail of
     * the MANIFEST, or null. Only damage that can legitimately be taken for a torn tail
     * qualifies: a cut, or a flip in the last edit; a flip before an intact edit must be refused.
     */
    static KnownIssue explainingRollback(Damage d) {
        boolean tailDamage = d.mode() == Damage.Mode.TRUNCATE || d.where().part().startsWith("last edit");
        return d.kind() == FileKind.MANIFEST && tailDamage ? MANIFEST_TAIL_ROLLBACK : null;
    }

    private static boolean inReservedHeaderBytes(Damage d) {
        return (d.kind().isWal() || d.kind() == FileKind.MANIFEST) && d.mode() == Damage.Mode.FLIP
                && (d.offset() == 6 || d.offset() == 7);
    }
}
