package dev.tala.engine.flush;

import dev.tala.core.io.FileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalLong;

/** The last step of a flush, once its MANIFEST edit is durable: the WAL files it made obsolete go. */
final class WalRetirement {
    private WalRetirement() {
    }

    /** Deletes, or hands the log for reuse, every WAL file numbered below {@code keepWal}. */
    static void retireBelow(FileLayer fs, DatabaseLayout layout, WriteAheadLog wal, long keepWal) throws IOException {
        boolean retired = false;
        for (Path p : fs.list(layout.walDir())) {
            OptionalLong n = DatabaseLayout.walNumber(p);
            if (n.isPresent() && n.getAsLong() < keepWal) {
                wal.retire(p);
                retired = true;
            }
        }
        if (retired) {
            fs.syncDirectory(layout.walDir());
        }
    }
}
