package dev.tala.cli.demo;

import dev.tala.engine.Options;

/**
 * A deterministic, dependency-free text embedding for the demo: feature hashing of a command
 * into {@code dimension} signed buckets, then L2 normalization. It is not a language model; it
 * puts commands that share words (the program, its subcommand, the service, flags) close
 * together, which is what a similarity-search demo over shell commands needs.
 *
 * <p>Features, lower-cased and split on anything that is not a letter or digit (so
 * {@code deploy/api} gives {@code deploy} and {@code api}):
 * <ul>
 *   <li>each word (weight 1; purely numeric words 0.3, since versions and counts say little),</li>
 *   <li>the first word again as "the program" (weight 1): the tool is the strongest family signal,</li>
 *   <li>each pair of adjacent words (weight 0.5): "rollout restart" differs from "rollout undo",</li>
 *   <li>character 3-grams of each non-numeric word with boundary marks, {@code ^de}, {@code dep}, ...,
 *       {@code oy$} (weight 0.25 each), so near-spellings (payment / payments) still overlap.</li>
 * </ul>
 * Each feature adds ±weight to one bucket, bucket and sign both from {@link Hash64}.
 *
 * <p>Text with no letters or digits (including the empty string) embeds to a fixed unit vector
 * (one reserved feature), never to zeros, so cosine similarity with it is always defined.
 *
 * <p>Deterministic across runs, machines and JDKs: integer hashing, float sums in a fixed order,
 * and one square root. Changing any constant here changes every stored demo embedding.
 * Instances are immutable and thread-safe.
 */
public final class TextEmbedder {
    public static final int DEFAULT_DIMENSION = 384;

    private static final float WORD_WEIGHT = 1.0f;
    private static final float NUMBER_WEIGHT = 0.3f;
    private static final float PROGRAM_WEIGHT = 1.0f;
    private static final float PAIR_WEIGHT = 0.5f;
    private static final float TRIGRAM_WEIGHT = 0.25f;

    // Seeds keep the feature kinds apart: the word "api" and the 3-gram "api" are different features.
    private static final long WORD_SEED = 0x11;
    private static final long PROGRAM_SEED = 0x22;
    private static final long PAIR_SEED = 0x33;
    private static final long TRIGRAM_SEED = 0x44;
    private static final long EMPTY_SEED = 0x55;

    private final int dimension;

    public TextEmbedder() {
        this(DEFAULT_DIMENSION);
    }

    public TextEmbedder(int dimension) {
        this.dimension = Options.checkDimension(dimension);
    }

    public int dimension() {
        return dimension;
    }

    /** The unit-length embedding of {@code text}; a new array each call. */
    public float[] embed(String text) {
        float[] v = new float[dimension];
        char[] chars = lowerCase(text);
        int words = 0;
        long previousWord = 0;
        int start = -1;
        for (int i = 0; i <= chars.length; i++) {
            boolean inWord = i < chars.length && Character.isLetterOrDigit(chars[i]);
            if (inWord && start < 0) {
                start = i;
            } else if (!inWord && start >= 0) {
                long word = addWord(v, chars, start, i, words == 0);
                if (words > 0) {
                    add(v, Hash64.mix(Hash64.mix(previousWord ^ PAIR_SEED) + word), PAIR_WEIGHT);
                }
                previousWord = word;
                words++;
                start = -1;
            }
        }
        if (words == 0) {
            add(v, Hash64.mix(EMPTY_SEED), 1.0f);
        }
        normalize(v);
        return v;
    }

    /** Adds the features of {@code chars[from, to)}; returns the word's hash for the pair feature. */
    private long addWord(float[] v, char[] chars, int from, int to, boolean first) {
        long h = Hash64.begin(WORD_SEED);
        boolean numeric = true;
        for (int i = from; i < to; i++) {
            h = Hash64.step(h, chars[i]);
            numeric &= Character.isDigit(chars[i]);
        }
        long word = Hash64.mix(h);
        add(v, word, numeric ? NUMBER_WEIGHT : WORD_WEIGHT);
        if (first) {
            add(v, Hash64.mix(word ^ PROGRAM_SEED), PROGRAM_WEIGHT);
        }
        if (!numeric) {
            addTrigrams(v, chars, from, to);
        }
        return word;
    }

    /** The 3-grams of "^word$", without building that string. */
    private void addTrigrams(float[] v, char[] chars, int from, int to) {
        int padded = to - from + 2;
        for (int s = 0; s + 3 <= padded; s++) {
            long h = Hash64.begin(TRIGRAM_SEED);
            for (int k = s; k < s + 3; k++) {
                char c = k == 0 ? '^' : k == padded - 1 ? '$' : chars[from + k - 1];
                h = Hash64.step(h, c);
            }
            add(v, Hash64.mix(h), TRIGRAM_WEIGHT);
        }
    }

    /** Bit 0 of the hash picks the sign, the rest the bucket: collisions then cancel on average. */
    private void add(float[] v, long hash, float weight) {
        int bucket = (int) ((hash >>> 1) % dimension);
        v[bucket] += (hash & 1) == 0 ? weight : -weight;
    }

    private static char[] lowerCase(String text) {
        char[] chars = text.toCharArray();
        for (int i = 0; i < chars.length; i++) {
            chars[i] = Character.toLowerCase(chars[i]);
        }
        return chars;
    }

    private static void normalize(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += (double) x * x;
        }
        if (sum == 0) {
            // Every feature cancelled out (possible in tiny dimensions): fall back to the empty vector.
            v[(int) ((Hash64.mix(EMPTY_SEED) >>> 1) % v.length)] = 1f;
            return;
        }
        float scale = (float) (1.0 / Math.sqrt(sum));
        for (int i = 0; i < v.length; i++) {
            v[i] *= scale;
        }
    }

    /** Cosine similarity of two vectors of the same length; 0 when either is all zeros. */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("lengths differ: " + a.length + " and " + b.length);
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }
}
