package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentSummary;
import java.util.List;

/**
 * The outputs of a finished compaction, in ascending id order (their id ranges are disjoint),
 * durable and with their directory synced: ready for the one manifest edit that adds
 * {@code metas} and removes the inputs. Empty when every row was dropped (a bottommost merge of
 * nothing but tombstones and what they hide): the edit then only removes the inputs.
 */
public record CompactionResult(List<SegmentSummary> outputs, List<SegmentMeta> metas, CompactionStats stats) {
    public CompactionResult {
        outputs = List.copyOf(outputs);
        metas = List.copyOf(metas);
        if (outputs.size() != metas.size()) {
            throw new IllegalArgumentException(outputs.size() + " outputs but " + metas.size() + " metas");
        }
    }
}
