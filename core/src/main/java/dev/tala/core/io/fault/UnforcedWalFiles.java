package dev.tala.core.io.fault;

import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import java.nio.file.Path;

/**
 * Forces of WAL files do nothing: their bytes stay where the OS put them, as those of a process
 * killed in NONE mode. Over a {@link FaultInjectingFileLayer}, a power loss then takes them.
 */
public final class UnforcedWalFiles extends ForwardingFileLayer {
    public UnforcedWalFiles(FileLayer inner) {
        super(inner);
    }

    @Override
    protected boolean forces(Path file) {
        return !file.getFileName().toString().endsWith(DatabaseLayout.WAL_SUFFIX);
    }
}
