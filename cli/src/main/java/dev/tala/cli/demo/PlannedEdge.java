package dev.tala.cli.demo;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;

/**
 * An edge of a planned step, to an earlier step of the same narrative ({@code local} is its
 * index) or to an intent already emitted elsewhere ({@code external}, e.g. the failure that set
 * off an incident). Ids of local steps exist only once they are emitted, hence the index.
 */
record PlannedEdge(int local, IntentId external, Relation relation, float weight) {
    static PlannedEdge toStep(int index, Relation relation, float weight) {
        return new PlannedEdge(index, null, relation, weight);
    }

    static PlannedEdge toIntent(IntentId id, Relation relation, float weight) {
        return new PlannedEdge(-1, id, relation, weight);
    }
}
