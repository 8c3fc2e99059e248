package dev.tala.segment.docformat;

import dev.tala.core.model.Edge;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** What FORMAT.md says a segment of given rows must hold, computed from the rows alone. */
final class DocExpectations {
    /** Unsigned big-endian byte order of the 16 id bytes, which the doc says is the sort order. */
    static final Comparator<IntentId> ID_ORDER = (a, b) -> {
        int c = Long.compareUnsigned(a.mostSignificantBits(), b.mostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.leastSignificantBits(), b.leastSignificantBits());
    };

    final List<IntentVersion> rows;
    final int n;
    final int p;
    final long e;
    final List<IntentId> foreign;
    final List<String> strings;

    DocExpectations(List<IntentVersion> rows) {
        this.rows = rows;
        this.n = rows.size();
        this.p = (int) rows.stream().filter(v -> !v.isTombstone()).count();
        this.e = rows.stream().filter(v -> !v.isTombstone()).mapToLong(v -> v.intent().edges().size()).sum();
        TreeSet<IntentId> local = new TreeSet<>(ID_ORDER);
        rows.forEach(v -> local.add(v.id()));
        TreeSet<IntentId> f = new TreeSet<>(ID_ORDER);
        Map<String, Integer> firstSeen = new LinkedHashMap<>();
        for (IntentVersion v : rows) {
            if (v.isTombstone()) {
                continue;
            }
            firstSeen.putIfAbsent(v.intent().command(), firstSeen.size());
            for (Edge edge : v.intent().edges()) {
                if (!local.contains(edge.target())) {
                    f.add(edge.target());
                }
            }
        }
        this.foreign = new ArrayList<>(f);
        this.strings = new ArrayList<>(firstSeen.keySet());
    }

    int f() {
        return foreign.size();
    }

    /** The u32 an edge to {@code target} is stored as: a local row, or N + its foreign-table index. */
    int targetCode(IntentId target) {
        for (int i = 0; i < n; i++) {
            if (rows.get(i).id().equals(target)) {
                return i;
            }
        }
        return n + foreign.indexOf(target);
    }

    static long bloomBits(long rows) {
        if (rows == 0) {
            return 64;
        }
        double bits = Math.ceil(-rows * Math.log(0.01) / (Math.log(2) * Math.log(2)));
        return Math.max(64, (long) bits);
    }

    static int bloomHashes(long rows) {
        if (rows == 0) {
            return 1;
        }
        return (int) Math.max(1, Math.ceil((double) bloomBits(rows) / rows * Math.log(2)));
    }

    static long fnv1a64(byte[] data) {
        long h = 0xcbf29ce484222325L;
        for (byte b : data) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** The bloom words FORMAT.md's double hashing gives for these rows. */
    long[] bloomWords() {
        long bits = bloomBits(n);
        int k = bloomHashes(n);
        long[] words = new long[(int) ((bits + 63) / 64)];
        for (IntentVersion v : rows) {
            byte[] id = v.id().toBytes();
            long h1 = fnv1a64(id);
            byte[] h1le = new byte[8];
            for (int i = 0; i < 8; i++) {
                h1le[i] = (byte) (h1 >>> (8 * i));
            }
            long h2 = fnv1a64(h1le) + 1;
            for (int i = 0; i < k; i++) {
                long bit = Long.remainderUnsigned(h1 + i * h2, bits);
                words[(int) (bit / 64)] |= 1L << (bit % 64);
            }
        }
        return words;
    }

    /** FORMAT.md's f16: floatToFloat16, saturated at ±65504. */
    static short f16(float x) {
        if (Math.abs(x) > 65504f) {
            return (short) (x < 0 ? 0xFBFF : 0x7BFF);
        }
        return Float.floatToFloat16(x);
    }

    /** FORMAT.md's bf16: round to nearest even, a finite value never becomes infinity. */
    static short bf16(float x) {
        long bits = Float.floatToRawIntBits(x) & 0xFFFFFFFFL;
        int r = (int) (((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF);
        if (Float.isFinite(x) && (r & 0x7FFF) == 0x7F80) {
            r = (r & 0x8000) | 0x7F7F;
        }
        return (short) r;
    }

    /** FORMAT.md's int8 scale choice for a vector. */
    static float int8Scale(float[] x) {
        float m = 0;
        for (float v : x) {
            m = Math.max(m, Math.abs(v));
        }
        if (m == 0) {
            return 0;
        }
        if (m < 127 * Float.MIN_VALUE) {
            return Float.MIN_VALUE;
        }
        float c = m / 127;
        float[] order = {c, Math.nextDown(c), Math.nextUp(c), Math.nextDown(Math.nextDown(c)),
            Math.nextUp(Math.nextUp(c)), Math.nextDown(Math.nextDown(Math.nextDown(c))),
            Math.nextUp(Math.nextUp(Math.nextUp(c)))};
        for (float s : order) {
            float up = 127 * s;
            if (Float.isFinite(up) && up / 127 == s && m / s >= 126.75f) {
                return s;
            }
        }
        return Float.isFinite(127 * c) ? c : Math.nextDown(c);
    }
}
