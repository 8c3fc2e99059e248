package dev.tala.compaction;

import dev.tala.core.io.FileLayer;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentRows;
import dev.tala.segment.SegmentSummary;
import dev.tala.segment.SegmentWriteOptions;
import dev.tala.segment.SegmentWriter;
import dev.tala.segment.StoredRow;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Merges a contiguous run of segments into new {@code is_compacted} segments.
 *
 * <p>The row of the newest version of every id streams out of a {@link MergingIterator} into an
 * {@link OutputRoller}, which hands each output's rows to a {@link SegmentWriter} (reverse edges
 * on, the configured embedding type). The rows are never decoded into intents: the writer reads
 * each value from the mapped input and copies an embedding byte for byte when its type does not
 * change ({@link SegmentRows#copiedFrom}). Edges whose target id lands in the same output are made
 * local by the writer, which resolves targets among the rows it writes. Each output is forced by
 * the writer; once all are written the job syncs their directory, so that when {@link #run}
 * returns the outputs are durable and the caller can append the one manifest edit that swaps
 * them for the inputs.
 *
 * <p>If anything fails, the outputs created so far are deleted and the failure is rethrown; the
 * inputs are only ever read. A crash in the middle leaves output files the manifest does not list,
 * which recovery removes.
 *
 * <p>Interrupting the thread stops the job the same way: an {@link InterruptedIOException} from
 * the check between rows (or, on a file layer whose channels an interrupt closes, a
 * {@link java.nio.channels.ClosedByInterruptException} from a file write); the outputs are
 * deleted and the interrupt flag stays set.
 *
 * <p>A job is configuration; {@link #run} keeps its state on the stack, so one job may run several
 * compactions, even concurrently (with distinct segment ids from {@code nextSegmentId}).
 */
public final class CompactionJob {
    private final FileLayer layer;
    private final CompactionJobOptions options;
    private final LongSupplier nextSegmentId;
    private final LongFunction<Path> pathFor;
    private final CompactionProgress.Listener progress;
    private final TokenBucket rateLimiter;
    private final LongSupplier wallClockNs;
    private final BooleanSupplier cancelled;

    /**
     * @param nextSegmentId gives the id of each new output segment
     * @param pathFor       the file of a segment id, e.g. {@code DatabaseLayout::segmentFile}
     */
    public CompactionJob(FileLayer layer, CompactionJobOptions options, LongSupplier nextSegmentId,
            LongFunction<Path> pathFor) {
        this(layer, options, nextSegmentId, pathFor, CompactionProgress.Listener.NONE,
                options.bytesPerSecond() > 0 ? new TokenBucket(options.bytesPerSecond()) : null,
                CompactionJob::nowNs, () -> false);
    }

    private CompactionJob(FileLayer layer, CompactionJobOptions options, LongSupplier nextSegmentId,
            LongFunction<Path> pathFor, CompactionProgress.Listener progress, TokenBucket rateLimiter,
            LongSupplier wallClockNs, BooleanSupplier cancelled) {
        this.layer = Objects.requireNonNull(layer, "layer");
        this.options = Objects.requireNonNull(options, "options");
        this.nextSegmentId = Objects.requireNonNull(nextSegmentId, "nextSegmentId");
        this.pathFor = Objects.requireNonNull(pathFor, "pathFor");
        this.progress = Objects.requireNonNull(progress, "progress");
        this.rateLimiter = rateLimiter;
        this.wallClockNs = Objects.requireNonNull(wallClockNs, "wallClockNs");
        this.cancelled = Objects.requireNonNull(cancelled, "cancelled");
    }

    /** This job reporting progress to {@code listener}. */
    public CompactionJob withProgress(CompactionProgress.Listener listener) {
        return new CompactionJob(layer, options, nextSegmentId, pathFor, listener, rateLimiter, wallClockNs, cancelled);
    }

    /**
     * This job throttled by {@code bucket} (or not at all if null) instead of a bucket of its own:
     * several jobs sharing one bucket share one budget.
     */
    public CompactionJob withRateLimiter(TokenBucket bucket) {
        return new CompactionJob(layer, options, nextSegmentId, pathFor, progress, bucket, wallClockNs, cancelled);
    }

    /**
     * This job giving up (deleting its outputs, as on any error) at its next row when
     * {@code cancel} says so: how a closing database stops a merge without interrupting I/O,
     * which would close shared file channels.
     */
    public CompactionJob withCancellation(BooleanSupplier cancel) {
        return new CompactionJob(layer, options, nextSegmentId, pathFor, progress, rateLimiter, wallClockNs, cancel);
    }

    /** This job stamping outputs' {@code created_at} from {@code clock} (nanoseconds since the epoch). */
    public CompactionJob withWallClock(LongSupplier clock) {
        return new CompactionJob(layer, options, nextSegmentId, pathFor, progress, rateLimiter, clock, cancelled);
    }

    /**
     * Runs the compaction a policy chose, checking that {@code readers} are its inputs in order.
     * When the inputs share no id and need no rewriting, nothing is written: the result is a
     * move ({@link SegmentMove}; {@code stats().moved()}), whose outputs are the inputs' own
     * files, which the caller must then keep.
     */
    public CompactionResult run(CompactionChoice choice, List<SegmentReader> readers) throws IOException {
        return run(choice, readers, OlderVersions.UNKNOWN);
    }

    /**
     * As {@link #run(CompactionChoice, List)}, told which ids the live segments outside the
     * merge may hold: a merge that is not bottommost then drops the tombstones whose ids none of
     * them may hold (a bottommost one drops every tombstone whatever {@code outside} says).
     */
    public CompactionResult run(CompactionChoice choice, List<SegmentReader> readers, OlderVersions outside)
            throws IOException {
        List<Long> expected = choice.inputIds();
        List<Long> actual = readers.stream().map(r -> r.header().segmentId()).toList();
        if (!expected.equals(actual)) {
            throw new IllegalArgumentException("readers are segments " + actual + " but the choice is " + expected);
        }
        long started = System.nanoTime();
        if (SegmentMove.obstacle(choice, readers, options).isEmpty()) {
            CompactionResult moved = SegmentMove.result(choice, readers, System.nanoTime() - started);
            progress.onProgress(new CompactionProgress(choice.inputRows(), choice.inputRows(), choice.inputBytes(),
                    choice.inputBytes(), readers.size(), 0));
            return moved;
        }
        return merge(readers, choice.outputLevel(), choice.bottommost() ? OlderVersions.NONE : outside);
    }

    /**
     * Merges {@code inputsNewestFirst} into new segments at {@code outputLevel}.
     *
     * @param bottommost true only if no live segment is older than the inputs: tombstones are then dropped
     * @throws IOException from the file layer, after the outputs created so far were deleted
     */
    public CompactionResult run(List<SegmentReader> inputsNewestFirst, int outputLevel, boolean bottommost)
            throws IOException {
        return merge(inputsNewestFirst, outputLevel, bottommost ? OlderVersions.NONE : OlderVersions.UNKNOWN);
    }

    private CompactionResult merge(List<SegmentReader> inputsNewestFirst, int outputLevel, OlderVersions outside)
            throws IOException {
        if (inputsNewestFirst.isEmpty()) {
            throw new IllegalArgumentException("a compaction needs at least one input");
        }
        if (outputLevel < 0 || outputLevel > 255) {
            throw new IllegalArgumentException("output level must be within 0..255, got " + outputLevel);
        }
        int dimension = inputsNewestFirst.getFirst().dimension();
        for (SegmentReader r : inputsNewestFirst) {
            if (r.dimension() != dimension) {
                throw new IllegalArgumentException("inputs mix embedding dimensions " + dimension + " and "
                        + r.dimension() + " (" + r.path() + ")");
            }
        }
        return new Run(List.copyOf(inputsNewestFirst), dimension, outputLevel, outside).execute();
    }

    private static long nowNs() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** The state of one compaction. */
    private final class Run {
        private final List<SegmentReader> inputs;
        private final int dimension;
        private final int outputLevel;
        private final MergingIterator merge;
        private final RateLimitedFileLayer throttled;
        private final SegmentWriter writer;
        private final long rowsTotal;
        private final long bytesTotal;
        private final List<Path> created = new ArrayList<>();
        private final List<SegmentSummary> outputs = new ArrayList<>();
        private final List<SegmentMeta> metas = new ArrayList<>();
        private long bytesWritten;
        private long rowsWritten;

        Run(List<SegmentReader> inputs, int dimension, int outputLevel, OlderVersions outside) {
            this.inputs = inputs;
            this.dimension = dimension;
            this.outputLevel = outputLevel;
            this.merge = new MergingIterator(inputs, outside);
            this.throttled = rateLimiter == null ? null : new RateLimitedFileLayer(layer, rateLimiter, cancelled);
            this.writer = new SegmentWriter(throttled == null ? layer : throttled);
            this.rowsTotal = inputs.stream().mapToLong(SegmentReader::rowCount).sum();
            this.bytesTotal = inputs.stream().mapToLong(SegmentReader::fileSize).sum();
        }

        CompactionResult execute() throws IOException {
            long started = System.nanoTime();
            RowSizeEstimator estimator = new RowSizeEstimator(dimension, options.outputType(), true);
            OutputRoller roller = new OutputRoller(estimator, options.targetOutputBytes(), this::writeOutput);
            try {
                long nextReport = CompactionDefaults.PROGRESS_INTERVAL_ROWS;
                while (merge.hasNext()) {
                    roller.add(merge.next());
                    if (merge.rowsConsumed() >= nextReport) {
                        nextReport = merge.rowsConsumed() + CompactionDefaults.PROGRESS_INTERVAL_ROWS;
                        checkInterrupted();
                        report();
                    }
                }
                roller.finish();
                labelOutputsAsOneRun();
                syncDirectories();
                report();
            } catch (Throwable t) {
                deleteOutputs(t);
                throw t;
            }
            CompactionStats stats = new CompactionStats(inputs.size(), bytesTotal, rowsTotal, outputs.size(),
                    bytesWritten, rowsWritten, merge.shadowedVersions(), merge.tombstonesDropped(),
                    roller.maxBufferedRows(), roller.maxBufferedBytes(), System.nanoTime() - started,
                    throttled == null ? 0 : throttled.throttledNanos(), false);
            return new CompactionResult(outputs, metas, stats);
        }

        private void writeOutput(List<StoredRow> rows) throws IOException {
            long id = nextSegmentId.getAsLong();
            Path path = pathFor.apply(id);
            // Never truncate a file we did not create: deleting it on failure would lose data.
            if (layer.exists(path)) {
                throw new IllegalStateException("compaction output " + path + " already exists (segment id " + id
                        + " reused?)");
            }
            created.add(path);
            SegmentWriteOptions writeOptions = new SegmentWriteOptions(id, wallClockNs.getAsLong(), dimension,
                    options.outputType(), true, true, options.sync());
            SegmentSummary summary = writer.write(path, writeOptions, SegmentRows.copiedFrom(rows));
            outputs.add(summary);
            metas.add(SegmentMeta.of(id, outputLevel, summary, true));
            bytesWritten += summary.fileSize();
            rowsWritten += summary.nodeCount();
            report();
        }

        /**
         * Gives every output the sequence range of all the outputs together. The outputs split
         * the merged rows by id, and with time-ordered ids and sequence numbers their own ranges
         * would not overlap either; policies would then take them for separate sorted runs of
         * similar size and merge them again, producing the same outputs, forever. The wider
         * range is still a bound on each output's rows, and it is what the MANIFEST records
         * (each file's footer keeps its exact range).
         */
        private void labelOutputsAsOneRun() {
            long min = metas.stream().mapToLong(SegmentMeta::minSequence).min().orElse(0);
            long max = metas.stream().mapToLong(SegmentMeta::maxSequence).max().orElse(0);
            metas.replaceAll(m -> m.withSequenceRange(min, max));
        }

        /** Makes the outputs' directory entries durable: the writer forced their bytes, not their names. */
        private void syncDirectories() throws IOException {
            Set<Path> dirs = new LinkedHashSet<>();
            for (Path p : created) {
                dirs.add(p.toAbsolutePath().getParent());
            }
            for (Path dir : dirs) {
                layer.syncDirectory(dir);
            }
        }

        private void checkInterrupted() throws InterruptedIOException {
            // A closing database cancels a background compaction so that close is prompt.
            if (Thread.currentThread().isInterrupted() || cancelled.getAsBoolean()) {
                throw new InterruptedIOException("compaction cancelled");
            }
        }

        private void report() {
            long rows = merge.rowsConsumed();
            double bytes = 0;
            for (int i = 0; i < inputs.size(); i++) {
                SegmentReader r = inputs.get(i);
                if (r.rowCount() > 0) {
                    bytes += (double) r.fileSize() * merge.rowsConsumed(i) / r.rowCount();
                } else {
                    bytes += r.fileSize(); // an empty input is done as soon as the merge starts
                }
            }
            progress.onProgress(new CompactionProgress(rows, rowsTotal, Math.round(bytes), bytesTotal,
                    outputs.size(), bytesWritten));
        }

        /**
         * Deletes every output this run created. No directory sync: an output that survives a
         * crash is unlisted in the manifest and recovery removes it.
         */
        private void deleteOutputs(Throwable failure) {
            for (Path p : created) {
                try {
                    layer.delete(p);
                } catch (IOException | RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
        }
    }
}
