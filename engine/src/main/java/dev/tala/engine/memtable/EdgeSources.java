package dev.tala.engine.memtable;

import dev.tala.core.model.IntentId;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For incoming-edge queries: per target id, the ids that had an edge to it in some version
 * added here. A superset of the current sources; the reader checks the version it reads.
 *
 * <p>Almost every target has one source or a few, and a concurrent set per target cost about
 * 200 bytes and four allocations for its first source. So a target's sources start as a small
 * array, replaced (never changed) by a longer copy at each new source, and only a target that
 * passes {@link #ARRAY_LIMIT} sources gets a concurrent set, so a popular target does not cost
 * a quadratic copy. One thread adds at a time; readers run concurrently and see either the old
 * array or the new one.
 */
final class EdgeSources {
    static final int ARRAY_LIMIT = 8;

    /** Per target: an {@code IntentId[]} of at most {@link #ARRAY_LIMIT}, or a concurrent {@code Set<IntentId>}. */
    private final ConcurrentHashMap<IntentId, Object> byTarget = new ConcurrentHashMap<>();

    /** Called by the single writer only. */
    void add(IntentId target, IntentId source) {
        Object held = byTarget.get(target);
        if (held == null) {
            byTarget.put(target, new IntentId[] {source});
        } else if (held instanceof IntentId[] few) {
            if (contains(few, source)) {
                return;
            }
            if (few.length < ARRAY_LIMIT) {
                IntentId[] more = Arrays.copyOf(few, few.length + 1);
                more[few.length] = source;
                byTarget.put(target, more);
            } else {
                Set<IntentId> many = ConcurrentHashMap.newKeySet();
                many.addAll(Arrays.asList(few));
                many.add(source);
                byTarget.put(target, many);
            }
        } else {
            setOf(held).add(source);
        }
    }

    /** The sources recorded for {@code target}, each once; empty when none. */
    Collection<IntentId> of(IntentId target) {
        Object held = byTarget.get(target);
        if (held == null) {
            return List.of();
        }
        return held instanceof IntentId[] few ? Arrays.asList(few) : setOf(held);
    }

    private static boolean contains(IntentId[] ids, IntentId id) {
        for (IntentId i : ids) {
            if (i.equals(id)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private static Set<IntentId> setOf(Object held) {
        return (Set<IntentId>) held;
    }
}
