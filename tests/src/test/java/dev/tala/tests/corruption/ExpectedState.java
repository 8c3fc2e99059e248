package dev.tala.tests.corruption;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;

/**
 * What a database must answer, computed by brute force from a model state (id to live intent):
 * the reference for every read the audit makes.
 */
final class ExpectedState {
    /** An intent with its cosine similarity to a query. */
    record Scored(Intent intent, double score) {
    }

    private final NavigableMap<IntentId, Intent> live;

    ExpectedState(NavigableMap<IntentId, Intent> live) {
        this.live = live;
    }

    Optional<Intent> get(IntentId id) {
        return Optional.ofNullable(live.get(id));
    }

    /** Every live intent in id order (what a full scan yields). */
    List<Intent> inIdOrder() {
        return List.copyOf(live.values());
    }

    /** Live intents with {@code from <= timestamp < to}, in (timestamp, id) order. */
    List<Intent> scan(long from, long to) {
        return live.values().stream().filter(i -> i.timestampNs() >= from && i.timestampNs() < to)
                .sorted(Comparator.comparingLong(Intent::timestampNs).thenComparing(Intent::id)).toList();
    }

    /** Edges of {@code id}'s intent to live targets, in the intent's edge order. */
    List<Hop> edgesFrom(IntentId id) {
        Intent source = live.get(id);
        List<Hop> out = new ArrayList<>();
        if (source != null) {
            for (Edge e : source.edges()) {
                if (live.containsKey(e.target())) {
                    out.add(new Hop(id, e.target(), e.relation(), e.weight(), 1));
                }
            }
        }
        return out;
    }

    /** Edges from live intents to {@code id} (if it is live), in a canonical order. */
    List<Hop> edgesTo(IntentId id) {
        List<Hop> out = new ArrayList<>();
        if (live.containsKey(id)) {
            for (Intent source : live.values()) {
                for (Edge e : source.edges()) {
                    if (e.target().equals(id)) {
                        out.add(new Hop(source.id(), id, e.relation(), e.weight(), 1));
                    }
                }
            }
        }
        return canonical(out);
    }

    /** True when a hop (at any depth) is a real edge between two live intents. */
    boolean hasEdge(Hop hop) {
        Intent source = live.get(hop.from());
        return source != null && live.containsKey(hop.to()) && source.edges().stream().anyMatch(e ->
                e.target().equals(hop.to()) && e.relation() == hop.relation()
                        && Float.floatToIntBits(e.weight()) == Float.floatToIntBits(hop.weight()));
    }

    /** Live intents {@code filter} accepts whose similarity is defined, best first. */
    List<Scored> ranked(float[] query, SearchFilter filter) {
        List<Scored> out = new ArrayList<>();
        for (Intent i : live.values()) {
            double s = cosine(query, i);
            if (filter.accepts(i) && !Double.isNaN(s)) {
                out.add(new Scored(i, s));
            }
        }
        out.sort(Comparator.comparingDouble(Scored::score).reversed());
        return out;
    }

    static double cosine(float[] q, Intent i) {
        double dot = 0;
        double qq = 0;
        double vv = 0;
        for (int k = 0; k < q.length; k++) {
            double v = i.embedding(k);
            dot += q[k] * v;
            qq += (double) q[k] * q[k];
            vv += v * v;
        }
        return qq == 0 || vv == 0 ? Double.NaN : dot / Math.sqrt(qq * vv);
    }

    /** Sorts hops so two lists of the same edges compare equal whatever order they were found in. */
    static List<Hop> canonical(List<Hop> hops) {
        return hops.stream().sorted(Comparator.comparing(Hop::from).thenComparing(Hop::to)
                .thenComparing(Hop::relation).thenComparingInt(h -> Float.floatToIntBits(h.weight()))).toList();
    }
}
