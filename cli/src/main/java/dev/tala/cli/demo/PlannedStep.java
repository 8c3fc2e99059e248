package dev.tala.cli.demo;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * One step of a narrative as planned: when it starts, the command, and what came of it. Edges
 * always point back to earlier steps ("this was caused by / follows / depends on / retries /
 * branches from that"), so an edge target always exists before the intent that holds it.
 */
final class PlannedStep {
    final int index;
    final long timeNs;
    final String command;
    final StepKind kind;
    final Status status;
    final Outcome outcome;
    final float confidence;
    final List<PlannedEdge> edges = new ArrayList<>(2);
    /** Set by a story when this step's failure should page someone (an incident narrative follows). */
    boolean triggersIncident;
    private final Plan plan;

    PlannedStep(Plan plan, int index, long timeNs, String command, StepKind kind, Status status, Outcome outcome,
                float confidence) {
        this.plan = plan;
        this.index = index;
        this.timeNs = timeNs;
        this.command = command;
        this.kind = kind;
        this.status = status;
        this.outcome = outcome;
        this.confidence = confidence;
    }

    boolean ok() {
        return status == Status.SUCCESS;
    }

    long endNs() {
        return timeNs + outcome.latencyNs();
    }

    /** An edge of {@code relation} to an earlier step of the same plan. */
    PlannedStep link(PlannedStep earlier, Relation relation) {
        if (earlier.plan != plan || earlier.index >= index) {
            throw new IllegalStateException("an edge must point to an earlier step of the same narrative");
        }
        edges.add(PlannedEdge.toStep(earlier.index, relation, plan.weight(relation, earlier, this)));
        return this;
    }

    PlannedStep causedBy(PlannedStep earlier) {
        return link(earlier, Relation.CAUSAL);
    }

    PlannedStep follows(PlannedStep earlier) {
        return link(earlier, Relation.TEMPORAL);
    }

    PlannedStep dependsOn(PlannedStep earlier) {
        return link(earlier, Relation.DEPENDENCY);
    }

    PlannedStep branchesFrom(PlannedStep earlier) {
        return link(earlier, Relation.BRANCH);
    }

    /** A causal edge to an intent outside this narrative. */
    PlannedStep causedBy(IntentId external) {
        edges.add(PlannedEdge.toIntent(external, Relation.CAUSAL, plan.weight(Relation.CAUSAL, null, this)));
        return this;
    }
}
