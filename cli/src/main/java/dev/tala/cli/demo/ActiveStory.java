package dev.tala.cli.demo;

import dev.tala.core.model.IntentId;
import java.util.List;

/**
 * A narrative being emitted: its plan, how far it got, and the ids its steps received, so that
 * later steps can resolve edges to them.
 */
final class ActiveStory {
    final long serial;
    final Setting setting;
    final long contextHash;
    /** For an incident set off by a failure: that failure, else null. */
    final IntentId cause;
    private final List<PlannedStep> steps;
    private final IntentId[] ids;
    private int next;

    ActiveStory(long serial, Setting setting, Plan plan, IntentId cause) {
        this.serial = serial;
        this.setting = setting;
        this.contextHash = setting.contextHash();
        this.cause = cause;
        this.steps = plan.steps();
        this.ids = new IntentId[steps.size()];
    }

    boolean hasNext() {
        return next < steps.size();
    }

    long nextTimeNs() {
        return steps.get(next).timeNs;
    }

    PlannedStep peek() {
        return steps.get(next);
    }

    /** Records the id the current step was given and moves on. */
    void emitted(IntentId id) {
        ids[next++] = id;
    }

    /** The id of an earlier step, which always exists: edges only point back. */
    IntentId idOf(int index) {
        IntentId id = ids[index];
        if (id == null) {
            throw new IllegalStateException("step " + index + " of narrative " + serial + " was not emitted yet");
        }
        return id;
    }

}
