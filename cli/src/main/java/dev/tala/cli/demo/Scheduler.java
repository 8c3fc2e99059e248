package dev.tala.cli.demo;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Interleaves narratives in time: new ones start as a Poisson process (busier in working hours,
 * UTC), each is planned in full when it starts, and a priority queue always hands out the
 * earliest next step of any narrative. Timestamps therefore never go back, and every edge target
 * was handed out before the step that points at it. A planned failure that pages someone starts
 * an incident narrative a few minutes after it ends.
 *
 * <p>Everything here depends only on the seed and start time, never on what the caller does with
 * the steps, so two schedulers with the same inputs hand out the same steps: the run uses a first
 * one to learn when its last step happens.
 */
final class Scheduler {
    private static final long HOUR_NS = 3_600_000_000_000L;

    /** A step handed out, with the narrative it belongs to and the id it was given. */
    record Event(ActiveStory story, PlannedStep step, IntentId id) {
    }

    private final SplitMix64 rnd;
    private final V7Ids ids;
    private final PriorityQueue<ActiveStory> active = new PriorityQueue<>(
            Comparator.comparingLong(ActiveStory::nextTimeNs).thenComparingLong(s -> s.serial));
    private long nextArrivalNs;
    private long serial;

    Scheduler(long seed, long startNs) {
        this.rnd = new SplitMix64(seed);
        this.ids = new V7Ids(new SplitMix64(Hash64.mix(seed + 1)));
        this.nextArrivalNs = startNs;
    }

    Event next() {
        while (true) {
            ActiveStory head = active.peek();
            if (head == null || nextArrivalNs < head.nextTimeNs()) {
                arrive();
                continue;
            }
            active.poll();
            PlannedStep step = head.peek();
            IntentId id = ids.next(step.timeNs);
            head.emitted(id);
            if (head.hasNext()) {
                active.add(head);
            }
            if (step.status == Status.FAILURE && step.triggersIncident) {
                startIncident(head, step, id);
            }
            return new Event(head, step, id);
        }
    }

    private void arrive() {
        long t = nextArrivalNs;
        Setting setting = Setting.draw(rnd);
        double u = rnd.nextDouble();
        Plan plan;
        if (u < 0.36) {
            plan = BuildStory.plan(setting, rnd, t);
        } else if (u < 0.70) {
            plan = DeployStory.plan(setting, rnd, t);
        } else if (u < 0.90) {
            plan = ProvisioningStory.plan(setting, rnd, t);
        } else {
            plan = IncidentStory.plan(setting, rnd, t, null);
        }
        start(setting, plan, null);
        nextArrivalNs = t + Math.max(1_000_000L, rnd.exponential(meanArrivalGapNs(t)));
    }

    /** Busy in working hours, quiet at night (UTC). */
    private static long meanArrivalGapNs(long timeNs) {
        long hour = (timeNs / HOUR_NS) % 24;
        if (hour >= 8 && hour < 18) {
            return 150_000_000_000L;
        }
        return hour >= 18 && hour < 23 ? 360_000_000_000L : 900_000_000_000L;
    }

    /** The alert fires a few minutes after the failing step ends, in the same setting. */
    private void startIncident(ActiveStory failed, PlannedStep step, IntentId failure) {
        long alertAt = step.endNs() + rnd.logUniform(StepKind.min(1), StepKind.min(6));
        start(failed.setting, IncidentStory.plan(failed.setting, rnd, alertAt, failure), failure);
    }

    private void start(Setting setting, Plan plan, IntentId cause) {
        if (!plan.steps().isEmpty()) {
            active.add(new ActiveStory(serial++, setting, plan, cause));
        }
    }
}
