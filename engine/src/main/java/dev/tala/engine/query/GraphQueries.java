package dev.tala.engine.query;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import dev.tala.core.model.Relation;
import dev.tala.engine.memtable.MemTable;
import dev.tala.engine.read.PointLookup;
import dev.tala.engine.view.ReadView;
import dev.tala.engine.view.SegmentHandle;
import dev.tala.segment.IncomingEdge;
import dev.tala.segment.SegmentReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Edges as a reader at one sequence number sees them. Outgoing edges are the stored edges of
 * an intent's newest version. Incoming edges come from each segment's reverse (CSC) block and
 * each memtable's reverse index; a source counts only where its newest version lives, so an
 * edge removed by a later version is never reported. Edges to or from deleted or missing
 * intents are skipped.
 */
public final class GraphQueries {
    private final ReadView view;
    private final long sequence;

    public GraphQueries(ReadView view, long sequence) {
        this.view = view;
        this.sequence = sequence;
    }

    private boolean isLive(IntentId id) {
        IntentVersion v = PointLookup.find(view, id, sequence);
        return v != null && !v.isTombstone();
    }

    /** Edges from {@code id} to live intents (empty if {@code id} is not live). */
    public List<Hop> edgesFrom(IntentId id) {
        return edgesFrom(id, 1);
    }

    private List<Hop> edgesFrom(IntentId id, int depth) {
        IntentVersion v = PointLookup.find(view, id, sequence);
        if (v == null || v.isTombstone()) {
            return List.of();
        }
        List<Hop> out = new ArrayList<>();
        for (Edge e : v.intent().edges()) {
            if (isLive(e.target())) {
                out.add(new Hop(id, e.target(), e.relation(), e.weight(), depth));
            }
        }
        return out;
    }

    /**
     * Edges from live intents to {@code id} (empty if {@code id} is not live), ordered by source
     * id, each source's edges in its own order.
     */
    public List<Hop> edgesTo(IntentId id) {
        return edgesTo(id, 1);
    }

    private List<Hop> edgesTo(IntentId target, int depth) {
        if (!isLive(target)) {
            return List.of();
        }
        List<Hop> out = new ArrayList<>();
        List<MemTable> memtables = new ArrayList<>();
        memtables.add(view.active());
        memtables.addAll(view.immutables());
        for (MemTable m : memtables) {
            for (IntentId source : m.edgeSourcesOf(target)) {
                IntentVersion v = newestInMemtables(memtables, source);
                // Only the memtable that holds the newest version answers for it.
                if (v != null && m.get(source, sequence) == v && !v.isTombstone()) {
                    addEdgesTo(out, source, v, target, depth);
                }
            }
        }
        List<SegmentHandle> segments = view.segments();
        for (int i = 0; i < segments.size(); i++) {
            SegmentReader r = segments.get(i).reader();
            if (!r.hasReverseEdges()) {
                continue;
            }
            for (IncomingEdge e : r.edgesTo(target)) {
                if (r.isTombstone(e.sourceRow())) {
                    continue;
                }
                IntentId source = r.id(e.sourceRow());
                if (newestInMemtables(memtables, source) == null && !inNewerSegment(segments, i, source)) {
                    out.add(new Hop(source, target, e.relation(), e.weight(), depth));
                }
            }
        }
        // Sources come memtable by memtable and segment by segment, and a memtable's are a
        // concurrent set whose order later writes change: sorted (stably, so each source's
        // edges keep their order), the same data answers the same list in any snapshot, before
        // and after a flush or a compaction moves it.
        out.sort(Comparator.comparing(Hop::from));
        return out;
    }

    private void addEdgesTo(List<Hop> out, IntentId source, IntentVersion v, IntentId target, int depth) {
        for (Edge e : v.intent().edges()) {
            if (e.target().equals(target)) {
                out.add(new Hop(source, target, e.relation(), e.weight(), depth));
            }
        }
    }

    private IntentVersion newestInMemtables(List<MemTable> memtables, IntentId id) {
        for (MemTable m : memtables) {
            IntentVersion v = m.get(id, sequence);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static boolean inNewerSegment(List<SegmentHandle> segments, int index, IntentId id) {
        for (int i = 0; i < index; i++) {
            SegmentReader r = segments.get(i).reader();
            if (r.mightContain(id) && r.find(id) >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Breadth-first from {@code start} up to {@code maxDepth} steps, following edges whose
     * relation is in {@code relations} (all when empty) in {@code direction}. Each intent is
     * expanded once: {@code start} at depth 1, an intent first reached by a hop of depth d at
     * depth d + 1, and only while that is at most {@code maxDepth}. An expanded intent's edges in
     * {@code direction} are reported with its depth, including those leading back to an intent
     * already reached, so an edge is reported once, at the smaller depth of its endpoints that
     * it can be followed from. (Following both directions, an edge X to Y is found from X and
     * again from Y; it is kept from the endpoint expanded first, from X on a tie.)
     */
    public List<Hop> traverse(IntentId start, int maxDepth, Set<Relation> relations, Direction direction) {
        Objects.requireNonNull(direction, "direction");
        Objects.requireNonNull(relations, "relations");
        List<Hop> out = new ArrayList<>();
        if (maxDepth < 1 || !isLive(start)) {
            return out;
        }
        boolean both = direction == Direction.BOTH;
        // The depth at which each reached node is (or would be) expanded.
        Map<IntentId, Integer> expandedAt = new HashMap<>();
        expandedAt.put(start, 1);
        ArrayDeque<IntentId> frontier = new ArrayDeque<>();
        frontier.add(start);
        for (int depth = 1; depth <= maxDepth && !frontier.isEmpty(); depth++) {
            ArrayDeque<IntentId> next = new ArrayDeque<>();
            for (IntentId node : frontier) {
                List<Hop> hops = new ArrayList<>();
                if (direction != Direction.INCOMING) {
                    for (Hop h : edgesFrom(node, depth)) {
                        if (!both || expandedAt.getOrDefault(h.to(), Integer.MAX_VALUE) >= depth) {
                            hops.add(h);
                        }
                    }
                }
                if (direction != Direction.OUTGOING) {
                    for (Hop h : edgesTo(node, depth)) {
                        if (!both || expandedAt.getOrDefault(h.from(), Integer.MAX_VALUE) > depth) {
                            hops.add(h);
                        }
                    }
                }
                for (Hop h : hops) {
                    if (!relations.isEmpty() && !relations.contains(h.relation())) {
                        continue;
                    }
                    out.add(h);
                    IntentId reached = h.from().equals(node) ? h.to() : h.from();
                    if (expandedAt.putIfAbsent(reached, depth + 1) == null) {
                        next.add(reached);
                    }
                }
            }
            frontier = next;
        }
        return out;
    }
}
