package dev.tala.engine.flush;

import dev.tala.core.error.LoggedErrors;
import dev.tala.core.io.DirectoryLockLostException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.IntentVersion;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.view.LiveState;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.engine.write.FileNumbers;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestEdit;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes during the WAL replay of a writable open, so that a log holding many memtables' worth
 * (written with a larger memtable size, or by writers that outran the flushes before a crash)
 * is replayed in no more memory than the running database may use: once more frozen memtables
 * wait than writers may leave waiting, the oldest becomes a level-0 segment at once.
 *
 * <p>The MANIFEST cannot take an edit until the open has judged and repaired its tail, so the
 * segments are listed only by {@link #commit}, in one edit, after the replay and the WAL repair.
 * An open that fails before that edit's append deletes them ({@link #discardUncommitted}). A
 * crash before it leaves complete segments no edit lists, whose records the WAL holds (forced
 * before each segment is written); the next open moves them to {@code lost/}, as it does for a
 * flush that died before its edit (docs/RECOVERY.md, "Open", step 6).
 */
public final class ReplayFlusher {
    private static final Logger LOG = LoggerFactory.getLogger(ReplayFlusher.class);

    private final FileLayer fs;
    private final DatabaseLayout layout;
    private final FileNumbers files;
    private final int maxImmutables;
    private final Level0Writer writer;
    private final FlushCounters counters;
    private final List<SegmentMeta> written = new ArrayList<>();
    private long lastSequence = -1;
    private boolean committed;
    /** WAL files numbered up to this one are forced. */
    private long forcedThrough = -1;

    public ReplayFlusher(FileLayer fs, DatabaseLayout layout, FileNumbers files, int maxImmutables, int dimension,
                         EmbeddingType dtype, FlushCounters counters) {
        this.fs = fs;
        this.layout = layout;
        this.files = files;
        this.maxImmutables = maxImmutables;
        this.writer = new Level0Writer(fs, layout, dimension, dtype);
        this.counters = counters;
    }

    /**
     * Flushes the oldest frozen memtables of {@code live} while more than the limit wait. Views
     * acquired before may still show them as memtables: the caller acquires a new one.
     *
     * @param replayingWal the WAL file replay is reading: every record of a frozen memtable is
     *     in it or in an older one
     */
    public void flushExcess(LiveState live, long replayingWal) throws IOException {
        while (live.immutableCount() > maxImmutables) {
            forceWalThrough(replayingWal);
            long start = System.nanoTime();
            MemTable oldest = live.oldestImmutable();
            List<IntentVersion> rows = oldest.newestVersions();
            if (rows.isEmpty()) {
                // Only outcomes whose intents were gone: nothing to store, and the next replay skips them again.
                live.dropEmpty(oldest);
                continue;
            }
            SegmentMeta meta = writer.write(files.next(), rows);
            written.add(meta);
            SegmentReader reader = SegmentReader.open(fs, layout.segmentFile(meta.id()));
            live.flushed(oldest, new SegmentHandle(reader, meta));
            lastSequence = oldest.maxSequence();
            counters.add(meta.fileSize(), System.nanoTime() - start);
        }
    }

    /**
     * Forces the WAL files up to {@code walNumber} before a segment holding their records is
     * written. A killed process may have left its records in the page cache only (NONE or BATCH
     * mode), and the open forces the WAL files only at its repair step; a power loss before that
     * would keep the segment, which is forced, and lose the records under it. The next open
     * would then find an unlisted complete segment that neither the MANIFEST nor the WAL
     * reaches, which its strict modes take for a damaged MANIFEST edit and refuse.
     */
    private void forceWalThrough(long walNumber) throws IOException {
        if (walNumber <= forcedThrough) {
            return;
        }
        for (Path p : fs.list(layout.walDir())) {
            OptionalLong n = DatabaseLayout.walNumber(p);
            if (n.isPresent() && n.getAsLong() > forcedThrough && n.getAsLong() <= walNumber) {
                fs.force(p);
            }
        }
        forcedThrough = walNumber;
    }

    /**
     * Lists the segments written during the replay in one MANIFEST edit, with the WAL files and
     * sequence numbers they cover, then retires the WAL files no memtable still needs.
     */
    public void commit(Manifest manifest, LiveState live, WriteAheadLog wal, long nextFileNumber) throws IOException {
        if (written.isEmpty()) {
            return;
        }
        long keepWal = live.oldestNeededWalExcept(null);
        ManifestEdit.Builder edit = ManifestEdit.builder();
        written.forEach(edit::add);
        // Set before the append: an append that fails at its force may have left the edit in
        // the file all the same, and the segments it lists must then not be deleted.
        committed = true;
        manifest.append(edit.logNumber(keepWal).lastSequence(lastSequence).nextFileNumber(nextFileNumber).build());
        LOG.info("the WAL replay flushed {} memtables into segments {}..{}, through sequence {}", written.size(),
                written.getFirst().id(), written.getLast().id(), lastSequence);
        try {
            WalRetirement.retireBelow(fs, layout, wal, keepWal);
        } catch (DirectoryLockLostException e) {
            throw e;
        } catch (IOException e) {
            // Their records are listed in segments now; the next open deletes them.
            LOG.warn("could not remove the WAL files below {} after the replay's flushes: {}", keepWal,
                    LoggedErrors.describe(e), LoggedErrors.traceOf(e));
        }
    }

    /** The segments {@link #commit} listed (none before it, or when the replay flushed nothing). */
    public int committedSegments() {
        return committed ? written.size() : 0;
    }

    /** For an open that failed before {@link #commit}: removes the segments no MANIFEST edit lists. */
    public void discardUncommitted() {
        if (!committed) {
            for (SegmentMeta meta : written) {
                writer.deleteQuietly(layout.segmentFile(meta.id()));
            }
        }
    }
}
