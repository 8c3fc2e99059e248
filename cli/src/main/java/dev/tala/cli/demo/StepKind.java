package dev.tala.cli.demo;

/**
 * What sort of work a step is, and so how long it takes, how often it fails and how: a compile
 * takes minutes and dies with exit 2 or 137 (killed, out of memory), a health check takes
 * milliseconds and fails with curl's 7 (no connection), 22 (HTTP error) or 28 (timeout). Exit
 * codes 124 (timeout(1)) and 28 (curl's {@code --max-time}) are timeouts: such a failure lasts
 * the full time limit.
 * "Human" steps (an engineer investigating) have think time before the next step and lower
 * confidence than automation.
 */
enum StepKind {
    GIT(ms(800), s(20), 0.01, 0, false, 0, 128, 1),
    COMPILE(s(25), min(6), 0.04, 0, false, 0, 1, 2, 2, 137),
    TEST(s(40), min(12), 0.10, 0, false, 0, 1, 1, 1, 1, 124, 137),
    PACKAGE(s(15), min(4), 0.02, 0, false, 0, 1, 137),
    PUSH(s(5), s(90), 0.03, 0, false, 0, 1),
    ROLLOUT(s(20), min(6), 0.06, 0.02, false, 0, 1, 124),
    HEALTH(ms(40), s(2), 0.07, 0, false, 0, 7, 22, 28),
    NOTIFY(ms(200), s(3), 0.005, 0, false, 0, 1),
    QUERY(ms(150), s(8), 0.04, 0.02, true, 0, 1, 2),
    MITIGATE(s(2), s(90), 0.15, 0.04, true, 0, 1),
    PLAN(s(10), min(3), 0.03, 0, false, 0, 1),
    APPLY(s(30), min(15), 0.06, 0.03, false, 1, 1),
    DNS(s(1), s(15), 0.02, 0, false, 0, 255, 1),
    CERT(s(5), min(3), 0.05, 0, false, 0, 1, 124),
    MIGRATION(s(3), min(10), 0.05, 0.03, false, 1, 1, 3),
    WRITEUP(ms(500), s(3), 0, 0, true, 0, 1);

    final long minLatencyNs;
    final long maxLatencyNs;
    final double failureRate;
    final double partialRate;
    final boolean human;
    /** The exit code of a partial result: 0 when the tool reports success on what it did. */
    final int partialExitCode;
    /** Drawn uniformly, so a code listed twice is twice as likely. */
    private final int[] failureExitCodes;

    StepKind(long minLatencyNs, long maxLatencyNs, double failureRate, double partialRate, boolean human,
             int partialExitCode, int... failureExitCodes) {
        this.minLatencyNs = minLatencyNs;
        this.maxLatencyNs = maxLatencyNs;
        this.failureRate = failureRate;
        this.partialRate = partialRate;
        this.human = human;
        this.partialExitCode = partialExitCode;
        this.failureExitCodes = failureExitCodes;
    }

    int failureExitCode(SplitMix64 rnd) {
        return failureExitCodes[rnd.nextInt(failureExitCodes.length)];
    }

    /** How long a failure with this exit code took: the time limit for a timeout. */
    long failureLatencyNs(int exitCode, SplitMix64 rnd) {
        if (exitCode == 124 || exitCode == 28) {
            return this == HEALTH ? s(5) : maxLatencyNs; // health checks run with --max-time 5
        }
        return rnd.logUniform(minLatencyNs, maxLatencyNs);
    }

    static long ms(long millis) {
        return millis * 1_000_000L;
    }

    static long s(long seconds) {
        return seconds * 1_000_000_000L;
    }

    static long min(long minutes) {
        return minutes * 60_000_000_000L;
    }
}
