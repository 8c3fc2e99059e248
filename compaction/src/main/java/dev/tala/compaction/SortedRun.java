package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.ArrayList;
import java.util.List;

/**
 * Live segments whose sequence ranges overlap, taken together: the outputs of one compaction
 * (disjoint ids, overlapping sequence ranges) or a single flush segment. Policies move whole
 * sorted runs, never part of one, so the sequence ranges of distinct runs stay disjoint and
 * "newest first" stays a total order between runs.
 *
 * @param first index of the run's newest segment in the live list
 * @param end   index after its oldest segment
 */
public record SortedRun(int first, int end, List<SegmentMeta> segments, long bytes, int level) {
    public SortedRun {
        segments = List.copyOf(segments);
    }

    /**
     * Groups {@code liveNewestFirst} into sorted runs, newest first.
     *
     * @throws IllegalArgumentException if the list is not ordered newest first (by max sequence
     *     number, descending), which every selection here relies on
     */
    public static List<SortedRun> of(List<SegmentMeta> liveNewestFirst) {
        for (int i = 1; i < liveNewestFirst.size(); i++) {
            if (liveNewestFirst.get(i - 1).maxSequence() < liveNewestFirst.get(i).maxSequence()) {
                throw new IllegalArgumentException("live segments must be listed newest first: segment "
                        + liveNewestFirst.get(i).id() + " (max sequence " + liveNewestFirst.get(i).maxSequence()
                        + ") follows segment " + liveNewestFirst.get(i - 1).id() + " (max sequence "
                        + liveNewestFirst.get(i - 1).maxSequence() + ")");
            }
        }
        List<SortedRun> runs = new ArrayList<>();
        int start = 0;
        while (start < liveNewestFirst.size()) {
            long runMinSequence = liveNewestFirst.get(start).minSequence();
            int end = start + 1;
            while (end < liveNewestFirst.size() && liveNewestFirst.get(end).maxSequence() >= runMinSequence) {
                runMinSequence = Math.min(runMinSequence, liveNewestFirst.get(end).minSequence());
                end++;
            }
            runs.add(of(liveNewestFirst, start, end));
            start = end;
        }
        return runs;
    }

    private static SortedRun of(List<SegmentMeta> live, int first, int end) {
        List<SegmentMeta> segments = live.subList(first, end);
        long bytes = 0;
        int level = 0;
        for (SegmentMeta m : segments) {
            bytes += m.fileSize();
            level = Math.max(level, m.level());
        }
        return new SortedRun(first, end, segments, bytes, level);
    }

    /** Rows of the run's segments, tombstones included. */
    public long rows() {
        return segments.stream().mapToLong(SegmentMeta::rows).sum();
    }

    /** Tombstone rows of the run's segments. */
    public long tombstones() {
        return segments.stream().mapToLong(SegmentMeta::tombstones).sum();
    }

    /** The segments of runs {@code [from, to)}, newest first: a contiguous slice of the live list. */
    public static List<SegmentMeta> segmentsOf(List<SortedRun> runs, int from, int to) {
        List<SegmentMeta> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.addAll(runs.get(i).segments());
        }
        return out;
    }
}
