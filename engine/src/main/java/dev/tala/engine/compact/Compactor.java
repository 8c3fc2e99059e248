package dev.tala.engine.compact;

import dev.tala.compaction.CompactionChoice;
import dev.tala.compaction.CompactionJob;
import dev.tala.compaction.CompactionJobOptions;
import dev.tala.compaction.CompactionPolicy;
import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.CompactionResult;
import dev.tala.compaction.CompactionStats;
import dev.tala.compaction.OlderVersions;
import dev.tala.compaction.TokenBucket;
import dev.tala.core.concurrent.UninterruptibleWaits;
import dev.tala.core.io.FileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.background.CoalescingWorker;
import dev.tala.engine.view.LiveState;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.engine.write.FailureState;
import dev.tala.engine.write.FileNumbers;
import dev.tala.recovery.manifest.Manifest;
import dev.tala.recovery.manifest.ManifestEdit;
import dev.tala.segment.EmbeddingType;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentSummary;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs compactions: in the background after flushes (as the policy asks), or on request (full,
 * or the segments overlapping a time range). One at a time. The order (docs/RECOVERY.md,
 * "Compaction"): outputs written and made durable by the job; one MANIFEST edit adds the outputs
 * and removes the inputs; the new read view is published; each input is unmapped and deleted
 * when the last view holding it is released, so readers never wait and never lose a mapping.
 * A move (inputs that share no id and need no rewriting; docs/COMPACTION.md, "Moves") writes
 * nothing: its edit removes the inputs and adds the same segments at the new level, and the
 * files stay, mapped once, under handles that share the old ones' references.
 */
public final class Compactor {
    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    /** What the compactor needs to know, fixed for an open database. */
    public record Settings(CompactionPolicy policy, boolean background, boolean moves, long bytesPerSecond,
                           long targetSegmentBytes, EmbeddingType hotType, Optional<EmbeddingType> coldType,
                           int coldLevel) {
    }

    private final FileLayer fs;
    private final DatabaseLayout layout;
    private final LiveState live;
    private final Manifest manifest;
    private final FileNumbers files;
    private final FailureState failure;
    private final Runnable onProgress;
    private final Settings settings;
    private final TokenBucket rateLimiter;
    private final ReentrantLock oneAtATime = new ReentrantLock();
    private final CoalescingWorker worker = new CoalescingWorker("tala-compaction", this::backgroundPass);
    private final ObsoleteFiles obsoleteFiles;

    private final AtomicLong compactions = new AtomicLong();
    private final AtomicLong moves = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    /** Background passes asked for, and the count the last completed pass had seen. */
    private final AtomicLong passRequests = new AtomicLong();
    private volatile long settledAtRequest = -1;

    public Compactor(FileLayer fs, DatabaseLayout layout, LiveState live, Manifest manifest, FileNumbers files,
                     FailureState failure, Runnable onProgress, Settings settings) {
        this.fs = fs;
        this.layout = layout;
        this.live = live;
        this.manifest = manifest;
        this.files = files;
        this.failure = failure;
        this.onProgress = onProgress;
        this.settings = settings;
        this.rateLimiter = settings.bytesPerSecond() > 0 ? new TokenBucket(settings.bytesPerSecond()) : null;
        this.obsoleteFiles = new ObsoleteFiles(fs);
    }

    /** Asks for a background pass (after a flush); ignored when background compaction is off. */
    public void schedule() {
        if (settings.background()) {
            passRequests.incrementAndGet();
            worker.request();
        }
    }

    /**
     * True when the policy had nothing more to compact at the end of the last background pass
     * and no flush has asked for a pass since. Writers stalled for level 0 to shrink stop
     * waiting then: the policy will not shrink it until more flushes arrive.
     */
    public boolean settled() {
        return settledAtRequest == passRequests.get();
    }

    private void backgroundPass() {
        long requestsSeen = passRequests.get();
        try {
            while (!worker.stopping() && !failure.hasFailed()
                    && runOnce(settings.policy()::pick, CompactionProgress.Listener.NONE).isPresent()) {
                onProgress.run();
            }
            settledAtRequest = requestsSeen;
            onProgress.run();
        } catch (InterruptedIOException e) {
            if (!worker.stopping()) {
                failure.fail("background compaction failed", e);
            }
            // Cancelled by close: the job deleted its outputs and its inputs are untouched.
            onProgress.run();
        } catch (IOException | RuntimeException | Error e) {
            failure.fail("background compaction failed", e);
            onProgress.run();
        }
    }

    /** Runs the compactions the policy asks for now, one after another, until it asks for none. */
    public List<CompactionStats> compactPending(CompactionProgress.Listener listener) throws IOException {
        List<CompactionStats> done = new ArrayList<>();
        for (Optional<CompactionStats> s = runOnce(settings.policy()::pick, listener); s.isPresent();
                s = runOnce(settings.policy()::pick, listener)) {
            done.add(s.get());
        }
        return done;
    }

    /** Compacts every live segment into one bottommost run (tombstones dropped). */
    public Optional<CompactionStats> compactAll(CompactionProgress.Listener listener) throws IOException {
        return runOnce(settings.policy()::full, listener);
    }

    /** Compacts the smallest run covering every segment that overlaps [from, to). */
    public Optional<CompactionStats> compactRange(long from, long to, CompactionProgress.Listener listener)
            throws IOException {
        return runOnce(live -> settings.policy().overlapping(live, from, to), listener);
    }

    /** Bytes of the compaction the policy would run next (0 when it would run none). */
    public long pendingBytes() {
        return pendingBytes(settings.policy(), live);
    }

    /** The input size of the compaction {@code policy} would run next over {@code live}'s segments. */
    public static long pendingBytes(CompactionPolicy policy, LiveState live) {
        try {
            return policy.pick(SegmentHandle.metas(live.segments())).map(CompactionChoice::inputBytes).orElse(0L);
        } catch (RuntimeException e) {
            // A custom policy that throws fails the compactions that ask it (and the database,
            // in the background, which stats reports); stats itself still answers.
            LOG.debug("compaction policy '{}' threw while stats asked what is pending", policy.name(), e);
            return 0;
        }
    }

    private Optional<CompactionStats> runOnce(Function<List<SegmentMeta>, Optional<CompactionChoice>> select,
                                              CompactionProgress.Listener listener) throws IOException {
        // The lock is reentrant: TalaDB refuses compactions from a progress listener (this thread
        // holding it), which would run over the running one's inputs.
        oneAtATime.lock();
        try {
            if (worker.stopping()) {
                throw new InterruptedIOException("the database is closing");
            }
            failure.checkWritable();
            List<SegmentHandle> segments = live.segments();
            Optional<CompactionChoice> picked = select.apply(SegmentHandle.metas(segments));
            if (picked.isEmpty()) {
                return Optional.empty();
            }
            CompactionChoice choice = picked.get();
            choice.requireRunnableOver(SegmentHandle.metas(segments), settings.policy().name());
            List<SegmentHandle> inputs = new ArrayList<>();
            for (long id : choice.inputIds()) {
                inputs.add(segments.stream().filter(h -> h.id() == id).findFirst().orElseThrow());
            }
            List<SegmentReader> outside = segments.stream().filter(h -> !choice.inputIds().contains(h.id()))
                    .map(SegmentHandle::reader).toList();
            return Optional.of(compact(choice, inputs, OlderVersions.inSegments(outside), listener));
        } finally {
            oneAtATime.unlock();
        }
    }

    /**
     * Runs {@code choice} over {@code inputs}; {@code outside} asks the other live segments, which
     * stay open meanwhile because only this thread (under {@code oneAtATime}) removes segments.
     */
    private CompactionStats compact(CompactionChoice choice, List<SegmentHandle> inputs, OlderVersions outside,
                                    CompactionProgress.Listener listener) throws IOException {
        EmbeddingType outputType = settings.coldType().isPresent() && choice.outputLevel() >= settings.coldLevel()
                ? settings.coldType().get() : settings.hotType();
        CompactionJobOptions options = CompactionJobOptions.defaults(outputType)
                .withTargetOutputBytes(settings.targetSegmentBytes())
                .withMoves(settings.moves());
        CompactionJob job = new CompactionJob(fs, options, files::next, layout::segmentFile)
                .withProgress(listener)
                .withRateLimiter(rateLimiter)
                .withCancellation(worker::stopping);
        List<SegmentReader> readers = inputs.stream().map(SegmentHandle::reader).toList();
        CompactionResult result = job.run(choice, readers, outside);
        if (!live.segments().containsAll(inputs)) {
            // Only this thread compacts (oneAtATime), so this cannot happen; if it did, listing
            // the outputs would put the MANIFEST at odds with the live set for good. A move's
            // outputs are its inputs' own files.
            if (!result.stats().moved()) {
                for (SegmentSummary out : result.outputs()) {
                    fs.delete(out.path());
                }
            }
            throw new IllegalStateException("compaction inputs are no longer all live; outputs discarded");
        }

        ManifestEdit.Builder edit = ManifestEdit.builder().nextFileNumber(files.peek());
        result.metas().forEach(edit::add);
        choice.inputIds().forEach(edit::remove);
        try {
            manifest.append(edit.build());
            publish(result, inputs);
        } catch (IOException | RuntimeException | Error e) {
            // Once the edit may be durable, the MANIFEST lists the outputs and not the inputs
            // while the live set still holds the inputs: a later compaction's edit would leave
            // an output listed beside its own, and a reopen would bring back what it dropped (a
            // deleted intent). Only a reopen brings the two together again, so no write may
            // follow. The background path fails the database the same way.
            failure.fail("a compaction failed after its MANIFEST edit", e);
            throw e;
        }
        LOG.debug("compacted {} segments ({} bytes) into {} ({} bytes{}), {}", inputs.size(),
                result.stats().inputBytes(), result.metas().size(), result.stats().outputBytes(),
                result.stats().moved() ? ", moved" : "", choice.reason());
        return result.stats();
    }

    /** Opens the outputs of a committed compaction and puts them in place of its inputs in the live set. */
    private void publish(CompactionResult result, List<SegmentHandle> inputs) throws IOException {
        List<SegmentHandle> outputs = new ArrayList<>();
        if (result.stats().moved()) {
            // The inputs' files are the outputs: the same mappings under their new labels.
            for (SegmentMeta meta : result.metas()) {
                outputs.add(inputs.stream().filter(h -> h.id() == meta.id()).findFirst().orElseThrow()
                        .relabeled(meta));
            }
            moves.incrementAndGet();
        } else {
            try {
                for (int i = 0; i < result.outputs().size(); i++) {
                    SegmentSummary out = result.outputs().get(i);
                    outputs.add(new SegmentHandle(SegmentReader.open(fs, out.path()), result.metas().get(i)));
                }
            } catch (IOException | RuntimeException e) {
                // Handles no live set will hold: unmapped here, or never (their arena is closed only by them).
                outputs.forEach(SegmentHandle::release);
                throw e;
            }
            for (SegmentHandle in : inputs) {
                Path file = layout.segmentFile(in.id());
                in.whenUnused(() -> obsoleteFiles.delete(file));
            }
        }
        // Counted before publishing, so stats never show the new segments with the old counters.
        compactions.incrementAndGet();
        bytesRead.addAndGet(result.stats().bytesRead());
        bytesWritten.addAndGet(result.stats().outputBytes());
        live.compacted(inputs, outputs);
    }

    /**
     * Stops background work promptly: a compaction in progress is cancelled at its next row and
     * deletes its outputs (its inputs are untouched), so close never waits for a long merge. It
     * is not interrupted: an interrupt closes whatever file channel the thread is using, which
     * could be the MANIFEST's in the middle of an edit. A compaction already committing its
     * edit finishes it. The same goes for a compaction an embedder runs on its own thread
     * ({@code TalaDB.compact}): this returns once it has ended, so that closing never unmaps
     * segments it still reads, and a later one refuses to start.
     */
    public void shutdown() {
        Duration patience = Duration.ofMinutes(1);
        if (!worker.stop(patience)) {
            LOG.warn("a compaction is still committing after a minute; closing anyway");
        }
        if (UninterruptibleWaits.tryLock(oneAtATime, patience)) {
            oneAtATime.unlock();
        } else {
            LOG.warn("a compaction on a caller's thread has not ended; closing anyway");
        }
    }

    /** True on the thread running a compaction, that is, inside its progress listener. */
    public boolean compactingOnThisThread() {
        return oneAtATime.isHeldByCurrentThread();
    }

    /**
     * Deletes the inputs whose last reader is gone; call after the live set is closed, so
     * that every input is released by then.
     */
    public void deleteReleasedInputs() {
        obsoleteFiles.close();
    }

    /**
     * Counters for stats. {@code moves} counts the compactions (among {@code compactions}) that
     * kept their inputs as they were; they read and write no bytes.
     */
    public record Stats(long compactions, long moves, long bytesRead, long bytesWritten) {
    }

    public Stats stats() {
        return new Stats(compactions.get(), moves.get(), bytesRead.get(), bytesWritten.get());
    }
}
