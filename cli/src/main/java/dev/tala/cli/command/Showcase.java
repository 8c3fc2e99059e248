package dev.tala.cli.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.tala.cli.demo.FailureChain;
import dev.tala.cli.demo.NarrativeRun;
import dev.tala.core.model.Intent;
import dev.tala.core.model.Relation;
import dev.tala.engine.DbStats;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@code tala demo} shows once its intents are in: a failure, the intents around it in time,
 * the nearest distinct commands, the chain that led to it and what it set off, and the
 * database's statistics. Gathered from one snapshot, then printed as tables or as one JSON object.
 *
 * @param failure null when the run made no failure
 */
record Showcase(Intent failure, List<Intent> window, List<SearchHit> similar, List<Step> causes, List<Step> effects,
                DbStats stats) {
    private static final long TWO_MINUTES_NS = 120_000_000_000L;
    private static final int WINDOW_INTENTS = 12;
    private static final int SIMILAR_COMMANDS = 6;
    private static final int SIMILAR_CANDIDATES = 200;

    /** One hop of a traversal with the intent at its far end. */
    record Step(Hop hop, Intent intent) {
    }

    static Showcase of(TalaDB db, NarrativeRun run) {
        List<FailureChain> chains = run.failureChains();
        try (Snapshot s = db.snapshot()) {
            Intent failure = chains.isEmpty() ? null : s.get(chains.getLast().failure()).orElse(null);
            if (failure == null && !run.failedIds().isEmpty()) {
                failure = s.get(run.failedIds().getLast()).orElse(null);
            }
            if (failure == null) {
                return new Showcase(null, List.of(), List.of(), List.of(), List.of(), db.stats());
            }
            long at = failure.timestampNs();
            // Timestamps reach Long.MAX_VALUE - 1: the window's end saturates rather than wraps.
            long end = at > Long.MAX_VALUE - TWO_MINUTES_NS ? Long.MAX_VALUE : at + TWO_MINUTES_NS;
            List<Intent> window = s.scan(Math.max(0, at - TWO_MINUTES_NS), end, WINDOW_INTENTS);
            // Many intents repeat a command word for word; show the nearest distinct commands.
            Set<String> seen = new HashSet<>(Set.of(failure.command()));
            List<SearchHit> similar = new ArrayList<>();
            for (SearchHit h : s.search(failure.embedding(), SIMILAR_CANDIDATES, SearchFilter.ALL)) {
                if (similar.size() < SIMILAR_COMMANDS && seen.add(h.intent().command())) {
                    similar.add(h);
                }
            }
            List<Step> causes = new ArrayList<>();
            for (Hop h : s.traverse(failure.id(), 4, EnumSet.of(Relation.CAUSAL, Relation.DEPENDENCY, Relation.RETRY),
                    Direction.OUTGOING)) {
                causes.add(new Step(h, s.get(h.to()).orElseThrow()));
            }
            List<Step> effects = new ArrayList<>();
            for (Hop h : s.traverse(failure.id(), 2, EnumSet.of(Relation.CAUSAL, Relation.RETRY), Direction.INCOMING)) {
                effects.add(new Step(h, s.get(h.from()).orElseThrow()));
            }
            return new Showcase(failure, window, similar, causes, effects, db.stats());
        }
    }

    /** The JSON form: intents by id, status, time and command (their embeddings would swamp it). */
    Report report(String database, long intentsBefore, long intentsAdded, double ingestSeconds) {
        return new Report(database, intentsBefore, intentsAdded, ingestSeconds,
                intentsAdded / Math.max(ingestSeconds, 1e-9), failure == null ? null : Shown.of(failure, null),
                window.stream().map(i -> Shown.of(i, null)).toList(),
                similar.stream().map(h -> Shown.of(h.intent(), h.score())).toList(),
                causes.stream().map(Linked::of).toList(), effects.stream().map(Linked::of).toList(), stats);
    }

    /** {@code tala demo --json}'s one object. */
    record Report(String database, long intentsBefore, long intentsAdded, double ingestSeconds,
                  double intentsPerSecond, Shown failure, List<Shown> window, List<Shown> similar, List<Linked> causes,
                  List<Linked> effects, DbStats stats) {
    }

    /** An intent as the report shows it; {@code score} only for a search hit. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Shown(String id, String status, long timestampNs, String command, Float score) {
        static Shown of(Intent i, Float score) {
            return new Shown(i.id().toString(), i.status().label(), i.timestampNs(), i.command(), score);
        }
    }

    /** A traversal step: how far, along which relation, to which intent. */
    record Linked(int depth, String relation, Shown intent) {
        static Linked of(Step step) {
            return new Linked(step.hop().depth(), step.hop().relation().label(), Shown.of(step.intent(), null));
        }
    }
}
