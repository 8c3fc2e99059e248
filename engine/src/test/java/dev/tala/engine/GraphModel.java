package dev.tala.engine;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the graph queries should answer over a model of the live intents (id to newest version). */
final class GraphModel {
    private GraphModel() {
    }

    static List<Hop> expectedFrom(Map<IntentId, Intent> model, IntentId id, int depth) {
        Intent i = model.get(id);
        List<Hop> out = new ArrayList<>();
        if (i != null) {
            for (Edge e : i.edges()) {
                if (model.containsKey(e.target())) {
                    out.add(new Hop(id, e.target(), e.relation(), e.weight(), depth));
                }
            }
        }
        return out;
    }

    static List<Hop> expectedTo(Map<IntentId, Intent> model, IntentId id, int depth) {
        List<Hop> out = new ArrayList<>();
        if (!model.containsKey(id)) {
            return out;
        }
        for (Intent source : model.values()) {
            for (Edge e : source.edges()) {
                if (e.target().equals(id)) {
                    out.add(new Hop(source.id(), id, e.relation(), e.weight(), depth));
                }
            }
        }
        return out;
    }

    /**
     * Written from the rule rather than as a second breadth-first loop: the distance of every
     * node from {@code start} along edges of the allowed relations and direction; an edge is
     * reported once when an endpoint it may be followed from lies within {@code maxDepth - 1},
     * at one plus the smaller such distance.
     */
    static List<Hop> expectedTraversal(Map<IntentId, Intent> model, IntentId start, int maxDepth,
                                               Set<Relation> relations, Direction direction) {
        List<Hop> edges = new ArrayList<>();
        for (Intent source : model.values()) {
            for (Hop h : expectedFrom(model, source.id(), 0)) {
                if (relations.isEmpty() || relations.contains(h.relation())) {
                    edges.add(h);
                }
            }
        }
        boolean outgoing = direction != Direction.INCOMING;
        boolean incoming = direction != Direction.OUTGOING;
        Map<IntentId, Integer> distance = new HashMap<>();
        if (model.containsKey(start)) {
            distance.put(start, 0);
        }
        for (int d = 0; d < maxDepth - 1; d++) {
            for (Hop e : edges) {
                if (outgoing && Integer.valueOf(d).equals(distance.get(e.from()))) {
                    distance.putIfAbsent(e.to(), d + 1);
                }
                if (incoming && Integer.valueOf(d).equals(distance.get(e.to()))) {
                    distance.putIfAbsent(e.from(), d + 1);
                }
            }
        }
        List<Hop> out = new ArrayList<>();
        for (Hop e : edges) {
            int nearest = Integer.MAX_VALUE;
            if (outgoing && distance.containsKey(e.from())) {
                nearest = distance.get(e.from());
            }
            if (incoming && distance.containsKey(e.to())) {
                nearest = Math.min(nearest, distance.get(e.to()));
            }
            if (nearest < maxDepth) {
                out.add(new Hop(e.from(), e.to(), e.relation(), e.weight(), nearest + 1));
            }
        }
        return out;
    }
}
