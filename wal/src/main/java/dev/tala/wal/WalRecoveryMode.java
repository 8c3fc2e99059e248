package dev.tala.wal;

/**
 * What replay does when a record is damaged, after RocksDB's WALRecoveryMode. A record is part
 * of the <em>tail</em> when it sits in the newest WAL file and no intact record follows it: the
 * bytes a crash can leave half-written. Anything else that is damaged is corruption.
 */
public enum WalRecoveryMode {
    /** Drop a damaged tail; corruption anywhere else is an error naming file and offset. The default. */
    TOLERATE_CORRUPTED_TAIL,
    /** Any damaged or incomplete record, even in the tail, is an error. */
    ABSOLUTE_CONSISTENCY,
    /** Stop at the first damaged record anywhere; everything after it, in every later file, is ignored. */
    POINT_IN_TIME,
    /** Skip each damaged record, resume at the next intact one, and report what was skipped. */
    SKIP_CORRUPTED;

    /** The command-line name. */
    public String label() {
        return switch (this) {
            case TOLERATE_CORRUPTED_TAIL -> "tolerate-tail";
            case ABSOLUTE_CONSISTENCY -> "absolute";
            case POINT_IN_TIME -> "point-in-time";
            case SKIP_CORRUPTED -> "skip-corrupted";
        };
    }

    /** Accepts the command-line names: tolerate-tail, absolute, point-in-time, skip-corrupted. */
    public static WalRecoveryMode parse(String text) {
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "tolerate-tail", "tolerate-corrupted-tail" -> TOLERATE_CORRUPTED_TAIL;
            case "absolute", "absolute-consistency" -> ABSOLUTE_CONSISTENCY;
            case "point-in-time" -> POINT_IN_TIME;
            case "skip-corrupted" -> SKIP_CORRUPTED;
            default -> throw new IllegalArgumentException("recovery mode \"" + text
                    + "\" is not tolerate-tail, absolute, point-in-time or skip-corrupted");
        };
    }
}
