package dev.tala.compaction;

import dev.tala.segment.SegmentMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Estimates a policy's write and space amplification without touching a disk: a pure function
 * of the policy and a {@link SimulatedWorkload}. Segments are modelled as sorted id sets with a
 * tombstone bit per row; a compaction keeps the newest version per id and drops the tombstones
 * whose ids no segment outside it holds (all of them when bottommost), as {@link CompactionJob}
 * does, and costs the bytes of its output. After
 * each flush the policy is asked for compactions until it has none, i.e. compaction keeps up
 * with ingest. One output per compaction (splitting an output into several files changes no byte
 * count). Per-segment overhead (header, footer, bloom) is ignored.
 */
public final class AmplificationSimulator {
    /** A policy that keeps asking for compactions after this many in a row is broken. */
    static final int MAX_COMPACTIONS_PER_FLUSH = 10_000;

    private AmplificationSimulator() {
    }

    public static SimulationResult simulate(CompactionPolicy policy, SimulatedWorkload workload) {
        return new Simulation(policy, workload).run();
    }

    /** A simulated segment: ascending ids, which of them are tombstones, and its metadata. */
    private record SimSegment(SegmentMeta meta, int[] ids, boolean[] tombstone) {
    }

    private static final class Simulation {
        private final CompactionPolicy policy;
        private final SimulatedWorkload w;
        private final Random random;
        private final List<SimSegment> live = new ArrayList<>();
        private final BitSet alive = new BitSet();
        private final int[] firstIdOfFlush;
        private int nextIntentId;
        private int aliveCount;
        private long nextSegmentId = 1;
        private long sequence;
        private long diskBytes;
        private long bytesFlushed;
        private long bytesCompacted;
        private int compactions;
        private double maxSpaceAmp;
        private double sumSpaceAmp;
        private int spaceSamples;
        private double peakTransient;
        private int maxSegments;

        Simulation(CompactionPolicy policy, SimulatedWorkload workload) {
            this.policy = policy;
            this.w = workload;
            this.random = new Random(workload.seed());
            this.firstIdOfFlush = new int[workload.flushes() + 1];
        }

        SimulationResult run() {
            double lastSpaceAmp = 1.0;
            for (int f = 0; f < w.flushes(); f++) {
                firstIdOfFlush[f] = nextIntentId;
                flush(f);
                compactUntilSettled();
                maxSegments = Math.max(maxSegments, live.size());
                if (aliveCount > 0) {
                    lastSpaceAmp = (double) diskBytes / liveBytes();
                    maxSpaceAmp = Math.max(maxSpaceAmp, lastSpaceAmp);
                    sumSpaceAmp += lastSpaceAmp;
                    spaceSamples++;
                }
            }
            double writeAmp = bytesFlushed == 0 ? 1.0 : (double) (bytesFlushed + bytesCompacted) / bytesFlushed;
            return new SimulationResult(policy.name(), w.flushes(), bytesFlushed, bytesCompacted, compactions,
                    writeAmp, lastSpaceAmp, maxSpaceAmp, spaceSamples == 0 ? 1.0 : sumSpaceAmp / spaceSamples,
                    Math.max(peakTransient, maxSpaceAmp), maxSegments, live.size());
        }

        private long liveBytes() {
            return aliveCount * w.putBytes();
        }

        private void flush(int f) {
            TreeMap<Integer, Boolean> rows = new TreeMap<>(); // id -> tombstone; the memtable keeps the last op
            int windowStart = firstIdOfFlush[Math.max(0, f - w.updateWindowFlushes() + 1)];
            int deleteFrom = w.deleteWindowFlushes() == 0 ? 0 : firstIdOfFlush[Math.max(0, f - w.deleteWindowFlushes() + 1)];
            for (int op = 0; op < w.operationsPerFlush(); op++) {
                double u = random.nextDouble();
                int id = -1;
                boolean delete = false;
                if (u < w.deleteFraction() && nextIntentId > deleteFrom) {
                    id = deleteFrom + random.nextInt(nextIntentId - deleteFrom);
                    delete = true;
                } else if (u < w.deleteFraction() + w.updateFraction() && nextIntentId > windowStart) {
                    id = windowStart + random.nextInt(nextIntentId - windowStart);
                }
                if (id < 0 || !alive.get(id)) {
                    // Nothing suitable to update or delete (or it is gone): the operation appends instead.
                    id = nextIntentId++;
                    delete = false;
                }
                if (delete) {
                    alive.clear(id);
                    aliveCount--;
                } else if (!alive.get(id)) {
                    alive.set(id);
                    aliveCount++;
                }
                rows.put(id, delete);
            }
            int[] ids = new int[rows.size()];
            boolean[] tombstone = new boolean[rows.size()];
            int i = 0;
            for (var e : rows.entrySet()) {
                ids[i] = e.getKey();
                tombstone[i] = e.getValue();
                i++;
            }
            long minSequence = sequence + 1;
            sequence += w.operationsPerFlush();
            SimSegment segment = segment(ids, tombstone, 0, minSequence, sequence, false);
            live.addFirst(segment);
            diskBytes += segment.meta().fileSize();
            bytesFlushed += segment.meta().fileSize();
        }

        private SimSegment segment(int[] ids, boolean[] tombstone, int level, long minSequence, long maxSequence,
                boolean compacted) {
            long bytes = 0;
            int tombstones = 0;
            for (boolean t : tombstone) {
                bytes += t ? w.tombstoneBytes() : w.putBytes();
                tombstones += t ? 1 : 0;
            }
            // Timestamps follow sequence numbers: intents are time-ordered.
            SegmentMeta meta = new SegmentMeta(nextSegmentId++, level, bytes, ids.length, tombstones, minSequence,
                    maxSequence, minSequence, maxSequence, compacted);
            return new SimSegment(meta, ids, tombstone);
        }

        private void compactUntilSettled() {
            for (int n = 0; ; n++) {
                Optional<CompactionChoice> choice = policy.pick(metas());
                if (choice.isEmpty()) {
                    return;
                }
                if (n == MAX_COMPACTIONS_PER_FLUSH) {
                    throw new IllegalStateException(policy.name() + " asked for more than "
                            + MAX_COMPACTIONS_PER_FLUSH + " compactions after one flush");
                }
                compact(choice.get());
            }
        }

        private List<SegmentMeta> metas() {
            List<SegmentMeta> out = new ArrayList<>(live.size());
            for (SimSegment s : live) {
                out.add(s.meta());
            }
            return out;
        }

        private void compact(CompactionChoice choice) {
            List<SegmentMeta> inputs = choice.inputs();
            int first = indexOf(inputs.getFirst().id());
            for (int k = 0; k < inputs.size(); k++) {
                if (first + k >= live.size() || live.get(first + k).meta().id() != inputs.get(k).id()) {
                    throw new IllegalStateException(policy.name() + " chose a run that is not contiguous: "
                            + choice.inputIds());
                }
            }
            if (choice.bottommost() != (first + inputs.size() == live.size())) {
                throw new IllegalStateException(policy.name() + " got the bottommost flag wrong: " + choice);
            }
            SimSegment merged = live.get(first + inputs.size() - 1);
            long inputBytes = merged.meta().fileSize();
            for (int k = inputs.size() - 2; k >= 0; k--) {
                SimSegment newer = live.get(first + k);
                inputBytes += newer.meta().fileSize();
                merged = merge(newer, merged);
            }
            SimSegment output = withoutTombstonesHidingNothing(merged, first, inputs.size());
            output = segment(output.ids(), output.tombstone(), choice.outputLevel(),
                    inputs.getLast().minSequence(), inputs.getFirst().maxSequence(), true);
            long outputBytes = output.meta().fileSize();
            if (aliveCount > 0) {
                peakTransient = Math.max(peakTransient, (double) (diskBytes + outputBytes) / liveBytes());
            }
            live.subList(first, first + inputs.size()).clear();
            if (output.ids().length > 0) {
                live.add(first, output);
            }
            diskBytes += outputBytes - inputBytes;
            bytesCompacted += outputBytes;
            compactions++;
        }

        private int indexOf(long segmentId) {
            for (int i = 0; i < live.size(); i++) {
                if (live.get(i).meta().id() == segmentId) {
                    return i;
                }
            }
            throw new IllegalStateException(policy.name() + " chose segment " + segmentId + ", which is not live");
        }

        /** Union of two sorted id sets; for an id in both, the newer's row wins. */
        private static SimSegment merge(SimSegment newer, SimSegment older) {
            int[] a = newer.ids();
            int[] b = older.ids();
            int[] ids = new int[a.length + b.length];
            boolean[] tomb = new boolean[ids.length];
            int i = 0;
            int j = 0;
            int n = 0;
            while (i < a.length || j < b.length) {
                if (j == b.length || (i < a.length && a[i] <= b[j])) {
                    if (j < b.length && a[i] == b[j]) {
                        j++; // shadowed
                    }
                    ids[n] = a[i];
                    tomb[n++] = newer.tombstone()[i++];
                } else {
                    ids[n] = b[j];
                    tomb[n++] = older.tombstone()[j++];
                }
            }
            return new SimSegment(null, Arrays.copyOf(ids, n), Arrays.copyOf(tomb, n));
        }

        /**
         * {@code merged} without the tombstones whose ids no live segment outside the merge (the
         * {@code count} from {@code first}) holds: all of them when it is bottommost. The job asks
         * bloom filters, which sometimes keep a tombstone this drops (about 1% of them).
         */
        private SimSegment withoutTombstonesHidingNothing(SimSegment merged, int first, int count) {
            int[] ids = new int[merged.ids().length];
            boolean[] tomb = new boolean[ids.length];
            int n = 0;
            for (int i = 0; i < merged.ids().length; i++) {
                boolean tombstone = merged.tombstone()[i];
                if (!tombstone || heldOutside(merged.ids()[i], first, count)) {
                    ids[n] = merged.ids()[i];
                    tomb[n++] = tombstone;
                }
            }
            return new SimSegment(null, Arrays.copyOf(ids, n), Arrays.copyOf(tomb, n));
        }

        private boolean heldOutside(int id, int first, int count) {
            for (int k = 0; k < live.size(); k++) {
                if ((k < first || k >= first + count) && Arrays.binarySearch(live.get(k).ids(), id) >= 0) {
                    return true;
                }
            }
            return false;
        }
    }
}
