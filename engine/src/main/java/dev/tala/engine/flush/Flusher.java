package dev.tala.engine.flush;

import dev.tala.compaction.OlderVersions;
import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.DirectoryLockLostException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.background.CoalescingWorker;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.view.LiveState;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.engine.write.FailureState;
import dev.tala.engine.write.FileNumbers;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestEdit;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns frozen memtables into segments on a background thread, oldest first, in the order
 * DESIGN.md fixes (docs/RECOVERY.md, "Flush"): write the segment with is_partial set, force,
 * clear the flag, force (both inside SegmentWriter); sync the segment directory; append the
 * MANIFEST edit that adds the segment and marks older WAL files obsolete, forced; only then
 * retire the obsolete WAL files, and last publish the segment to readers.
 */
public final class Flusher {
    private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

    private final FileLayer fs;
    private final DatabaseLayout layout;
    private final LiveState live;
    private final Manifest manifest;
    private final FileNumbers files;
    private final WriteAheadLog wal;
    private final FailureState failure;
    private final Runnable onProgress;
    private final Level0Writer writer;
    private final FlushCounters counters;
    private final CoalescingWorker worker = new CoalescingWorker("tala-flush", this::drain);

    public Flusher(FileLayer fs, DatabaseLayout layout, LiveState live, Manifest manifest, FileNumbers files,
                   WriteAheadLog wal, FailureState failure, Runnable onProgress, int dimension, EmbeddingType dtype,
                   FlushCounters counters) {
        this.wal = wal;
        this.fs = fs;
        this.layout = layout;
        this.live = live;
        this.manifest = manifest;
        this.files = files;
        this.failure = failure;
        this.onProgress = onProgress;
        this.writer = new Level0Writer(fs, layout, dimension, dtype);
        this.counters = counters;
    }

    /** Makes sure a flush pass will run soon; cheap to call often. */
    public void schedule() {
        worker.request();
    }

    private void drain() {
        while (!worker.stopping() && !failure.hasFailed()) {
            MemTable oldest = live.oldestImmutable();
            if (oldest == null) {
                return;
            }
            try {
                flush(oldest);
            } catch (IOException | RuntimeException | Error e) {
                failure.fail("flushing a memtable failed", e);
            } finally {
                onProgress.run();
            }
        }
    }

    private void flush(MemTable memtable) throws IOException {
        long start = System.nanoTime();
        List<IntentVersion> rows = withoutTombstonesHidingNothing(memtable.newestVersions());
        // With nothing to store (every row a tombstone hiding nothing) no segment is written, but
        // the edit is: the memtable's WAL files are obsolete all the same, and must not outlive
        // it. (Left to the next flush that wrote a segment, they piled up, one per flush, for as
        // long as every memtable was deleted before its flush, and were all replayed at each open.)
        SegmentMeta meta = rows.isEmpty() ? null : writer.write(files.next(), rows);
        long keepWal = live.oldestNeededWalExcept(memtable);
        ManifestEdit.Builder edit = ManifestEdit.builder()
                .logNumber(keepWal)
                .lastSequence(memtable.maxSequence())
                .nextFileNumber(files.peek());
        if (meta != null) {
            edit.add(meta);
        }
        manifest.append(edit.build());
        SegmentReader reader = meta == null ? null : SegmentReader.open(fs, layout.segmentFile(meta.id()));
        DirectoryLockLostException lockLost = retireWalBelow(keepWal);
        if (meta == null) {
            live.dropEmpty(memtable);
        } else {
            counters.add(meta.fileSize(), System.nanoTime() - start);
            // Published last: TalaDB.flush() returns once LiveState marks the memtable flushed, and
            // by then everything the flush does (WAL files deleted, counters) must have happened.
            live.flushed(memtable, new SegmentHandle(reader, meta));
        }
        if (lockLost != null) {
            throw lockLost;
        }
        LOG.debug("flushed {} versions into segment {} ({} bytes)", rows.size(), meta == null ? "none" : meta.id(),
                meta == null ? 0 : meta.fileSize());
    }

    /**
     * Retires the WAL files below {@code keepWal}, once the edit that made them obsolete is
     * durable. A lost directory lock is returned, for the caller to throw once the memtable has
     * left the view; any other failure is only logged.
     */
    private DirectoryLockLostException retireWalBelow(long keepWal) {
        try {
            WalRetirement.retireBelow(fs, layout, wal, keepWal);
            return null;
        } catch (DirectoryLockLostException e) {
            return e; // the directory was replaced: this instance must stop changing it
        } catch (IOException e) {
            // The edit is durable all the same, and the files are obsolete: the next flush
            // retries (it retires every WAL file below its log number), and so does the next open.
            LOG.warn("could not remove the WAL files below {} after a flush ({}); the next flush or open will", keepWal,
                    LoggedErrors.describe(e), LoggedErrors.traceOf(e));
            return null;
        }
    }

    /**
     * {@code rows} without the tombstones whose ids no live segment may hold, as a merge drops
     * them ({@link OlderVersions}). Every live segment is older than the memtable being flushed,
     * which is the oldest frozen one; the view pins their files while their bloom filters are read.
     * An intent written and deleted within one memtable's life thus never reaches the disk.
     */
    private List<IntentVersion> withoutTombstonesHidingNothing(List<IntentVersion> rows) {
        ReadView view = live.acquire();
        try {
            OlderVersions older = OlderVersions.inSegments(view.segments().stream().map(SegmentHandle::reader).toList());
            return rows.stream().filter(v -> !v.isTombstone() || older.mayHold(v.id())).toList();
        } finally {
            view.release();
        }
    }

    /** Stops after the flush in progress, if any; frozen memtables not flushed stay in the WAL. */
    public void shutdown() {
        if (!worker.stop(Duration.ofMinutes(5))) {
            LOG.warn("a flush is still running after 5 minutes; closing anyway");
            worker.interrupt();
        }
    }

    public FlushCounters.Stats stats() {
        return counters.stats();
    }
}
