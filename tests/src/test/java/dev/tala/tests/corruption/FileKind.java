package dev.tala.tests.corruption;

import java.nio.file.Path;
import java.util.List;

/** The kinds of file damaged, and which base database and file each one uses. */
enum FileKind {
    /** Any live segment of the main base (compacted or flushed). */
    SEGMENT,
    /** The main base's only WAL file, the newest: its last records are a torn-write candidate. */
    NEWEST_WAL,
    /** The older of the two-wal base's WAL files: damage there is never a torn tail. */
    OLDER_WAL,
    /** The main base's MANIFEST, one edit per flush and compaction. */
    MANIFEST;

    BaseDatabase base(BaseDatabases.Bases bases) {
        return this == OLDER_WAL ? bases.twoWal() : bases.main();
    }

    /** The files of {@code base} a case of this kind may damage. */
    List<Path> candidates(BaseDatabase base) {
        return switch (this) {
            case SEGMENT -> base.liveSegments();
            case NEWEST_WAL -> List.of(base.walFiles().getLast());
            case OLDER_WAL -> List.of(base.walFiles().getFirst());
            case MANIFEST -> List.of(base.layout().manifestFile());
        };
    }

    boolean isWal() {
        return this == NEWEST_WAL || this == OLDER_WAL;
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
