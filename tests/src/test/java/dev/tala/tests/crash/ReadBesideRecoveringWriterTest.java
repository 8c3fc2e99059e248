package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tala.core.error.TalaException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.io.WritableFile;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only open beside a writer that is still recovering (a service restarting after a
 * crash while an operator's command reads). The writer's recovery repairs files (deletes a
 * partial segment, cuts a torn WAL tail, moves an unlisted segment to lost/) BEFORE anything
 * changes the MANIFEST, and a writable open whose MANIFEST is small and intact appends nothing
 * to it at all. So the reader's before/after MANIFEST comparison saw no change, and whatever the
 * repair did to the files it was reading was thrown at the caller (a missing segment, an
 * InternalError from a cut WAL file) instead of being retried.
 *
 * <p>Made deterministic with file layers that pause each side at the point where the race
 * would otherwise need luck: the reader has listed (or mapped) a file, the writer then repairs
 * it, the reader goes on.
 */
class ReadBesideRecoveringWriterTest {
    private static final int DIM = 8;

    @TempDir
    Path work;

    /** The documented outcomes of a read-only open: it opens, or "changed while it was read". */
    private static void assertDocumentedOutcome(Path db, FileLayer readerLayer) {
        try (TalaDB reader = TalaDB.openReadOnly(db, Options.builder().fileLayer(readerLayer).build())) {
            assertTrue(reader.isReadOnly());
        } catch (TalaException e) {
            if (e.getClass() == TalaException.class && String.valueOf(e.getMessage()).contains("changed while it was read")) {
                return;
            }
            throw new AssertionError("a read-only open beside a recovering writer threw " + e, e);
        } catch (Throwable e) {
            throw new AssertionError("a read-only open beside a recovering writer threw " + e, e);
        }
    }

    /** Builds a database with segments and a WAL holding unflushed records, as a crash would leave it. */
    private Path database() {
        Path db = work.resolve("db");
        Options options = Options.builder().dimension(DIM).memtableBytes(64 * 1024).durability(Durability.sync())
                .backgroundCompaction(false).build();
        RandomIntents intents = new RandomIntents(7, DIM);
        try (TalaDB w = TalaDB.open(db, options)) {
            for (int i = 0; i < 600; i++) {
                w.put(intents.next());
            }
            w.flush();
            for (int i = 0; i < 50; i++) {
                w.put(intents.next());
            }
        }
        return db;
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted(Comparator.naturalOrder()).toList();
        }
    }

    /** Runs the writer's open on its own thread; returns the thread (joined by the caller). */
    private static Thread writerThread(Path db, FileLayer layer, AtomicReference<Throwable> failure) {
        Thread t = new Thread(() -> {
            try (TalaDB w = TalaDB.open(db, Options.builder().fileLayer(layer).createIfMissing(false).build())) {
                assertTrue(w.get(dev.tala.core.model.IntentId.parse("00000000-0000-0000-0000-000000000001")).isEmpty());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "recovering-writer");
        t.start();
        return t;
    }

    private static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * A flush interrupted by a crash leaves a partial segment; the restarting writer deletes it
     * during its segment triage. A reader that listed it just before cannot read it.
     */
    @Test
    void partialSegmentDeletedByTheRecoveringWriter() throws Exception {
        Path db = database();
        DatabaseLayout layout = new DatabaseLayout(db);
        Path partial = layout.segmentFile(9_999);
        Files.write(partial, new byte[10]); // a flush killed before its header was written
        CountDownLatch writerLocked = new CountDownLatch(1);
        CountDownLatch readerListed = new CountDownLatch(1);
        CountDownLatch writerDeleted = new CountDownLatch(1);
        CountDownLatch readerDone = new CountDownLatch(1);
        AtomicBoolean readerPaused = new AtomicBoolean();
        FileLayer writer = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public List<Path> list(Path dir) throws IOException {
                if (dir.equals(layout.segmentDir()) && writerLocked.getCount() > 0) {
                    writerLocked.countDown();
                    await(readerListed, "the reader to list the segments");
                }
                return super.list(dir);
            }

            @Override
            public void delete(Path file) throws IOException {
                super.delete(file);
                if (file.equals(partial)) {
                    writerDeleted.countDown();
                    await(readerDone, "the reader to finish");
                }
            }
        };
        FileLayer reader = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public List<Path> list(Path dir) throws IOException {
                List<Path> listed = super.list(dir);
                if (dir.equals(layout.segmentDir()) && readerPaused.compareAndSet(false, true)) {
                    readerListed.countDown();
                    await(writerDeleted, "the writer to delete the partial segment");
                }
                return listed;
            }
        };
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread w = writerThread(db, writer, writerFailure);
        await(writerLocked, "the writer to take the lock");
        try {
            assertDocumentedOutcome(db, reader);
        } finally {
            readerListed.countDown();
            readerDone.countDown();
            w.join(30_000);
        }
        assertEquals(null, writerFailure.get());
    }

    /**
     * The restarting writer cuts the torn tail of the newest WAL file. A reader that mapped the
     * file before the cut and reads the tail after it reads past the file's end: the mapping
     * raises SIGBUS, which the JVM turns into an InternalError, and the MANIFEST has not changed.
     */
    @Test
    void tornWalTailCutByTheRecoveringWriter() throws Exception {
        Path db = database();
        DatabaseLayout layout = new DatabaseLayout(db);
        List<Path> wals = files(layout.walDir(), DatabaseLayout.WAL_SUFFIX);
        assertTrue(!wals.isEmpty(), "no WAL file: " + wals);
        Path newest = wals.getLast();
        long intact = Files.size(newest);
        byte[] torn = new byte[3 * 4096 + 100];
        Arrays.fill(torn, (byte) 0x5A); // a record cut short by the crash, pages of it
        Files.write(newest, torn, StandardOpenOption.APPEND);
        CountDownLatch readerMapped = new CountDownLatch(1);
        CountDownLatch writerCut = new CountDownLatch(1);
        CountDownLatch readerDone = new CountDownLatch(1);
        AtomicBoolean writerPaused = new AtomicBoolean();
        AtomicBoolean readerPaused = new AtomicBoolean();
        CountDownLatch writerLocked = new CountDownLatch(1);
        FileLayer writer = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public dev.tala.core.io.DirectoryLock lock(Path lockFile) throws IOException {
                dev.tala.core.io.DirectoryLock l = super.lock(lockFile);
                writerLocked.countDown();
                return l;
            }

            @Override
            public WritableFile openForAppend(Path file) throws IOException {
                if (file.equals(newest) && writerPaused.compareAndSet(false, true)) {
                    await(readerMapped, "the reader to map the WAL file");
                    WritableFile f = super.openForAppend(file);
                    return new WritableFile() {
                        public Path path() {
                            return f.path();
                        }

                        public void append(java.nio.ByteBuffer source) throws IOException {
                            f.append(source);
                        }

                        public void write(long position, java.nio.ByteBuffer source) throws IOException {
                            f.write(position, source);
                        }

                        public void force() throws IOException {
                            f.force();
                        }

                        public boolean preallocate(long position, long length) throws IOException {
                            return f.preallocate(position, length);
                        }

                        public void truncate(long size) throws IOException {
                            f.truncate(size);
                            writerCut.countDown();
                            await(readerDone, "the reader to finish");
                        }

                        public long size() throws IOException {
                            return f.size();
                        }

                        public void close() throws IOException {
                            f.close();
                        }
                    };
                }
                return super.openForAppend(file);
            }
        };
        FileLayer reader = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public MappedRegion map(Path file) throws IOException {
                MappedRegion region = super.map(file);
                if (file.equals(newest) && readerPaused.compareAndSet(false, true)) {
                    readerMapped.countDown();
                    await(writerCut, "the writer to cut the torn tail");
                }
                return region;
            }
        };
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread w = writerThread(db, writer, writerFailure);
        // The writer replays first (it holds the lock), then waits in openForAppend for the reader's map.
        await(writerLocked, "the writer to take the lock");
        try {
            assertDocumentedOutcome(db, reader);
        } finally {
            readerMapped.countDown();
            readerDone.countDown();
            w.join(30_000);
        }
        assertEquals(null, writerFailure.get());
        assertEquals(intact, Files.size(newest), "the writer cut the tail back to the intact records");
    }

    /**
     * A segment the MANIFEST does not list (its edit lost) is moved to lost/ by the restarting
     * writer once its WAL replay is done. The reader looks at it twice: in its triage, and after
     * its own replay; between the two the file went.
     */
    @Test
    void unlistedSegmentMovedByTheRecoveringWriter() throws Exception {
        Path db = database();
        DatabaseLayout layout = new DatabaseLayout(db);
        List<Path> segments = files(layout.segmentDir(), DatabaseLayout.SEGMENT_SUFFIX);
        assertTrue(!segments.isEmpty(), "no segment");
        Path unlisted = layout.segmentFile(9_999);
        Files.copy(segments.getFirst(), unlisted);
        CountDownLatch readerTriaged = new CountDownLatch(1);
        CountDownLatch writerMoved = new CountDownLatch(1);
        CountDownLatch readerDone = new CountDownLatch(1);
        AtomicBoolean writerPaused = new AtomicBoolean();
        AtomicBoolean readerPaused = new AtomicBoolean();
        CountDownLatch writerLocked = new CountDownLatch(1);
        FileLayer writer = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public dev.tala.core.io.DirectoryLock lock(Path lockFile) throws IOException {
                dev.tala.core.io.DirectoryLock l = super.lock(lockFile);
                writerLocked.countDown();
                return l;
            }

            @Override
            public void rename(Path source, Path target) throws IOException {
                if (source.equals(unlisted) && writerPaused.compareAndSet(false, true)) {
                    await(readerTriaged, "the reader to triage the segments");
                    super.rename(source, target);
                    writerMoved.countDown();
                    await(readerDone, "the reader to finish");
                    return;
                }
                super.rename(source, target);
            }
        };
        FileLayer reader = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public MappedRegion map(Path file) throws IOException {
                // The reader maps the WAL after its segment triage: the unlisted file was read then.
                if (file.getParent().equals(layout.walDir()) && readerPaused.compareAndSet(false, true)) {
                    readerTriaged.countDown();
                    await(writerMoved, "the writer to move the unlisted segment");
                }
                return super.map(file);
            }
        };
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread w = writerThread(db, writer, writerFailure);
        await(writerLocked, "the writer to take the lock");
        try {
            assertDocumentedOutcome(db, reader);
        } finally {
            readerTriaged.countDown();
            readerDone.countDown();
            w.join(30_000);
        }
        assertEquals(null, writerFailure.get());
    }
}
