/**
 * Compaction: which segments to merge ({@link dev.tala.compaction.CompactionPolicy},
 * {@link dev.tala.compaction.TieredPolicy}, {@link dev.tala.compaction.LeveledPolicy},
 * {@link dev.tala.compaction.RunSelections}) and how to merge them
 * ({@link dev.tala.compaction.CompactionJob} over a {@link dev.tala.compaction.MergingIterator}).
 *
 * <p>The engine owns everything around a compaction: it lists live segments newest first, asks
 * a policy for a {@link dev.tala.compaction.CompactionChoice}, opens the chosen segments, runs a
 * job, appends one manifest edit that adds the returned metas and removes the inputs, installs a
 * new read view, and deletes the inputs once no reader maps them. Nothing here touches the
 * manifest or the live set.
 *
 * <pre>{@code
 * CompactionPolicy policy = TieredPolicy.withDefaults();
 * Optional<CompactionChoice> choice = policy.pick(liveNewestFirst);
 * CompactionJob job = new CompactionJob(layer, CompactionJobOptions.defaults(EmbeddingType.F32),
 *         nextSegmentId::getAndIncrement, layout::segmentFile);
 * CompactionResult result = job.run(choice.get(), readersOf(choice.get()));
 * }</pre>
 *
 * <p>See docs/COMPACTION.md for why the default policy is size-tiered and what it costs.
 */
package dev.tala.compaction;
