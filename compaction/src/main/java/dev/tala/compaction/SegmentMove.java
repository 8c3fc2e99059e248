package dev.tala.compaction;

import dev.tala.core.model.IntentId;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.SegmentSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A compaction that writes nothing (RocksDB's "trivial move"). When no two inputs share an id,
 * merging them would copy every row unchanged: no version shadows another, and nothing else is
 * dropped unless the merge is bottommost and an input holds tombstones, or (seldom) an input
 * holds a tombstone whose id no segment outside the inputs may hold ({@link OlderVersions}: one
 * the WAL replay flushed, or one a bloom filter's false positive kept), which a move keeps until
 * a later merge. The inputs then become
 * the outputs as they are; the MANIFEST edit that would swap outputs for inputs instead
 * re-labels them: the output level, and one sequence range for all of them, as for the outputs
 * of a merge (see {@code CompactionJob}). Intents get time-ordered ids (UUIDv7), so flushes of
 * intents written in order seldom overlap, and most compactions of such data need not rewrite a
 * byte.
 *
 * <p>A move is declined when a merge would change the bytes: the output embedding type differs
 * (a cold level), an input lacks the reverse edge block a merge would add, or a bottommost merge
 * would drop an input's tombstones. It is also declined when any input is small (below the
 * target output size divided by {@link CompactionDefaults#MOVE_MIN_INPUT_FRACTION}), so that the
 * small segments of frequent flushes or reopenings are merged into fewer files instead of being
 * carried along for good, even beside large ones.
 */
public final class SegmentMove {
    private SegmentMove() {
    }

    /**
     * Why {@code choice} cannot be done as a move, or empty when it can.
     *
     * @param inputs the readers of the choice's inputs, in the same order
     */
    public static Optional<String> obstacle(CompactionChoice choice, List<SegmentReader> inputs,
                                            CompactionJobOptions options) {
        if (!options.moves()) {
            return Optional.of("moves are turned off");
        }
        long minBytes = options.targetOutputBytes() / CompactionDefaults.MOVE_MIN_INPUT_FRACTION;
        for (SegmentReader r : inputs) {
            if (r.fileSize() < minBytes) {
                return Optional.of(r.path() + " has " + r.fileSize() + " bytes, below " + minBytes);
            }
            if (r.rowCount() == 0) {
                return Optional.of(r.path() + " has no rows");
            }
            if (r.dtype() != options.outputType()) {
                return Optional.of(r.path() + " stores " + r.dtype() + " embeddings, the outputs "
                        + options.outputType());
            }
            if (r.edgeCount() > 0 && !r.hasReverseEdges()) {
                return Optional.of(r.path() + " has no reverse edge block");
            }
            if (choice.bottommost() && r.putCount() < r.rowCount()) {
                return Optional.of(r.path() + " holds tombstones, which a bottommost merge drops");
            }
        }
        List<SegmentReader> byFirstId = new ArrayList<>(inputs);
        byFirstId.sort(Comparator.comparing(SegmentMove::firstId));
        for (int i = 1; i < byFirstId.size(); i++) {
            SegmentReader lower = byFirstId.get(i - 1);
            SegmentReader upper = byFirstId.get(i);
            if (lastId(lower).compareTo(firstId(upper)) >= 0) {
                return Optional.of(lower.path() + " and " + upper.path() + " overlap in ids");
            }
        }
        return Optional.empty();
    }

    /**
     * The result of moving {@code choice}'s inputs: each input as an output at the choice's
     * level, in ascending id order, all with the sequence range of the inputs together.
     * Call only when {@link #obstacle} is empty.
     */
    static CompactionResult result(CompactionChoice choice, List<SegmentReader> inputs, long elapsedNanos) {
        long minSequence = choice.inputs().stream().mapToLong(SegmentMeta::minSequence).min().orElseThrow();
        long maxSequence = choice.inputs().stream().mapToLong(SegmentMeta::maxSequence).max().orElseThrow();
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(i -> firstId(inputs.get(i))));
        List<SegmentSummary> outputs = new ArrayList<>();
        List<SegmentMeta> metas = new ArrayList<>();
        for (int i : order) {
            SegmentMeta in = choice.inputs().get(i);
            outputs.add(inputs.get(i).summary());
            metas.add(in.movedTo(choice.outputLevel(), minSequence, maxSequence));
        }
        long rows = choice.inputRows();
        CompactionStats stats = new CompactionStats(inputs.size(), choice.inputBytes(), rows, outputs.size(), 0,
                rows, 0, 0, 0, 0, elapsedNanos, 0, true);
        return new CompactionResult(outputs, metas, stats);
    }

    private static IntentId firstId(SegmentReader r) {
        return r.id(0);
    }

    private static IntentId lastId(SegmentReader r) {
        return r.id(r.rowCount() - 1);
    }
}
