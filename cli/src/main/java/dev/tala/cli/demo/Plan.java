package dev.tala.cli.demo;

import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.util.ArrayList;
import java.util.List;

/**
 * A narrative written out in advance: the steps in time order, each drawn from its
 * {@link StepKind} (latency, status, exit code, confidence) as it is added, so a story can read
 * {@link PlannedStep#ok()} and decide what happens next (retry, roll back, page someone).
 */
final class Plan {
    /** How fast a temporal edge's weight fades with the time between the two steps. */
    private static final double TEMPORAL_DECAY_NS = 30 * 60e9;

    private final SplitMix64 rnd;
    private final List<PlannedStep> steps = new ArrayList<>();
    private long cursorNs;

    Plan(SplitMix64 rnd, long startNs) {
        this.rnd = rnd;
        this.cursorNs = startNs;
    }

    SplitMix64 random() {
        return rnd;
    }

    List<PlannedStep> steps() {
        return steps;
    }

    /** Runs {@code command} at the current time; the clock moves past its latency and a gap. */
    PlannedStep add(String command, StepKind kind) {
        double u = rnd.nextDouble();
        Status status;
        int exitCode;
        long latency;
        if (u < kind.failureRate) {
            status = Status.FAILURE;
            exitCode = kind.failureExitCode(rnd);
            latency = kind.failureLatencyNs(exitCode, rnd);
        } else if (u < kind.failureRate + kind.partialRate) {
            status = Status.PARTIAL;
            exitCode = kind.partialExitCode;
            latency = rnd.logUniform(kind.minLatencyNs, kind.maxLatencyNs);
        } else {
            status = Status.SUCCESS;
            exitCode = 0;
            latency = rnd.logUniform(kind.minLatencyNs, kind.maxLatencyNs);
        }
        float confidence = kind.human ? rnd.uniform(0.5f, 0.9f) : rnd.uniform(0.85f, 1.0f);
        PlannedStep step = new PlannedStep(this, steps.size(), cursorNs, command, kind, status,
                new Outcome(latency, exitCode), confidence);
        steps.add(step);
        cursorNs += latency + gap(kind);
        return step;
    }

    /** Runs a failed step's command again after a back-off; the new attempt points at the old. */
    PlannedStep retry(PlannedStep failed) {
        pause(StepKind.s(5), StepKind.s(90));
        return add(failed.command, failed.kind).link(failed, Relation.RETRY);
    }

    /** Waits (DNS propagation, the morning after an incident) before the next step. */
    void pause(long minNs, long maxNs) {
        cursorNs += rnd.logUniform(minNs, maxNs);
    }

    /** Automation moves on within seconds; a person reads output and thinks for minutes. */
    private long gap(StepKind kind) {
        return kind.human ? rnd.logUniform(StepKind.s(15), StepKind.min(6)) : rnd.logUniform(StepKind.ms(300),
                StepKind.s(20));
    }

    /** Edge weights say how strong the link is; temporal links fade with the time between steps. */
    float weight(Relation relation, PlannedStep earlier, PlannedStep later) {
        return switch (relation) {
            case CAUSAL -> rnd.uniform(0.6f, 1.0f);
            case TEMPORAL -> (float) Math.max(0.05, StrictMath.exp(-(later.timeNs - earlier.timeNs) / TEMPORAL_DECAY_NS));
            case DEPENDENCY, RETRY -> 1.0f;
            case BRANCH -> rnd.uniform(0.5f, 0.9f);
        };
    }
}
