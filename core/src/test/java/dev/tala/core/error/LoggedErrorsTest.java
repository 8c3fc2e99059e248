package dev.tala.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

class LoggedErrorsTest {
    @Test
    void anIoErrorAnywhereInTheCausesIsLoggedWithoutATrace() {
        IOException full = new FileSystemException("/db/wal/1.wal", null, "No space left on device (writing)");
        assertNull(LoggedErrors.traceOf(full));
        assertNull(LoggedErrors.traceOf(new UncheckedIOException(full)));
        assertNull(LoggedErrors.traceOf(new DatabaseFailedException("the log failed", new StorageException("x", full))));
        assertEquals("/db/wal/1.wal: No space left on device (writing)", LoggedErrors.describe(full));
        assertEquals("/db/wal/1.wal: No space left on device (writing)", LoggedErrors.describe(new UncheckedIOException(full)));
    }

    @Test
    void anythingElseKeepsItsTrace() {
        IllegalStateException bug = new IllegalStateException("sized at 10, encoded to 12");
        assertSame(bug, LoggedErrors.traceOf(bug));
        DatabaseFailedException wrapped = new DatabaseFailedException("a flush failed", bug);
        assertSame(wrapped, LoggedErrors.traceOf(wrapped));
        assertEquals("java.lang.IllegalStateException: sized at 10, encoded to 12", LoggedErrors.describe(bug));
        assertEquals("a flush failed", LoggedErrors.describe(wrapped));
    }

    @Test
    void anIoExceptionWrappingABugKeepsItsTrace() {
        IOException wrapping = new IOException("closing the write-ahead log failed", new IllegalStateException("bug"));
        assertSame(wrapping, LoggedErrors.traceOf(wrapping));
    }

    @Test
    void aWrapperNamesTheFileOnce() {
        IOException fifo = new FileSystemException("/db/MANIFEST", null, "not a regular file but a directory");
        assertEquals("cannot read /db/MANIFEST: not a regular file but a directory",
                new StorageException("cannot read /db/MANIFEST", fifo).getMessage());
        assertEquals("cannot read /db/MANIFEST: does not exist",
                new StorageException("cannot read /db/MANIFEST", new java.nio.file.NoSuchFileException("/db/MANIFEST"))
                        .getMessage());
        assertEquals("cannot open /db: /db/MANIFEST: not a regular file but a directory",
                new StorageException("cannot open /db", fifo).getMessage());
    }

    @Test
    void aCycleOfCausesEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertSame(b, LoggedErrors.traceOf(b));
    }
}
