package dev.tala.cli.demo;

/**
 * The generator's source of randomness: SplitMix64, written out here rather than taken from
 * {@link java.util.Random} or {@link java.util.SplittableRandom} so that the demo data is the
 * same on every JDK (their derived methods are not all pinned by the specification), and because
 * it is fast and unsynchronized. Real-valued helpers use {@link StrictMath} for the same reason.
 */
final class SplitMix64 {
    private long state;

    SplitMix64(long seed) {
        this.state = seed;
    }

    long nextLong() {
        long z = (state += 0x9e3779b97f4a7c15L);
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Uniform in [0, bound): the high 32 bits scaled by multiplication (bias below 2^-32 · bound). */
    int nextInt(int bound) {
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }

    /** Uniform in [lo, hi], both inclusive. */
    int between(int lo, int hi) {
        return lo + nextInt(hi - lo + 1);
    }

    /** Uniform in [0, 1). */
    double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    boolean chance(double probability) {
        return nextDouble() < probability;
    }

    float uniform(float lo, float hi) {
        return (float) (lo + (hi - lo) * nextDouble());
    }

    /** Log-uniform in [lo, hi]: as many values between 1 s and 10 s as between 10 s and 100 s. */
    long logUniform(long lo, long hi) {
        double r = StrictMath.exp(StrictMath.log(lo) + nextDouble() * (StrictMath.log(hi) - StrictMath.log(lo)));
        return Math.clamp((long) r, lo, hi);
    }

    /** Exponentially distributed with the given mean: the gaps of a Poisson process. */
    long exponential(long mean) {
        return (long) (-mean * StrictMath.log(1.0 - nextDouble()));
    }

    <T> T pick(T[] choices) {
        return choices[nextInt(choices.length)];
    }

    /** Lower-case hexadecimal digits, as in git SHAs and pod names. */
    String hex(int digits) {
        char[] out = new char[digits];
        for (int i = 0; i < digits; i++) {
            out[i] = Character.forDigit(nextInt(16), 16);
        }
        return new String(out);
    }

    /** Lower-case letters and digits, as in Kubernetes pod-name suffixes. */
    String alnum(int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = Character.forDigit(nextInt(36), 36);
        }
        return new String(out);
    }
}
