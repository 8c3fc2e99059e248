package dev.tala.engine.read;

import dev.tala.core.error.StorageException;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.segment.SegmentReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the JVM's report of a mapped page it could not supply into an error that names the
 * segment. Reads touch segments through their mappings; a page the file system cannot supply
 * (the file was cut while mapped, a disk I/O error) raises SIGBUS, which the JVM reports as an
 * {@link InternalError} without saying which file, or even that a file is involved. A reader
 * cannot tell which of a view's segments faulted, so each is asked whether its file is now
 * shorter than its mapping, the one cause that can be seen after the fact.
 */
public final class MappedPageFaults {
    /** How HotSpot's messages for a faulting guarded access begin ("... unsafe memory access operation"). */
    private static final String FAULT_MESSAGE = "a fault occurred in";

    private MappedPageFaults() {
    }

    /** Whether {@code e} is the JVM's report of a faulting access to mapped memory. */
    public static boolean isPageFault(InternalError e) {
        return e.getMessage() != null && e.getMessage().startsWith(FAULT_MESSAGE);
    }

    /** The error a read through {@code view} reports for the page fault {@code fault}. */
    public static StorageException describe(ReadView view, InternalError fault) {
        List<String> cut = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (SegmentHandle s : view.segments()) {
            SegmentReader reader = s.reader();
            files.add(reader.path().toString());
            try {
                long onDisk = reader.lengthOnDisk();
                if (onDisk >= 0 && onDisk < reader.fileSize()) {
                    cut.add(reader.path() + " is " + onDisk + " bytes but was " + reader.fileSize() + " when opened");
                }
            } catch (IOException unreadable) {
                fault.addSuppressed(unreadable); // the fault is still what is reported
            }
        }
        String message = cut.isEmpty()
                ? "a mapped page of one of the segments " + files + " could not be read (a disk I/O error,"
                        + " or a file changed while the database had it open)"
                : "segment files were cut short while the database had them mapped (segments are never changed"
                        + " in place; something outside the database did this): " + String.join("; ", cut);
        return new StorageException("cannot read a segment", new IOException(message, fault));
    }
}
