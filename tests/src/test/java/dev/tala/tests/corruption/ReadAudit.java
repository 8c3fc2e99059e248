package dev.tala.tests.corruption;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Status;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs every kind of read against an opened database and holds each answer to the expected
 * state: a read must return exactly the expected answer or throw {@link CorruptionException}
 * naming the damaged file. Any other exception, and any answer that differs, is recorded.
 * Streaming reads may stop with a CorruptionException, but what they yielded before must be an
 * exact prefix of the expected answer: nothing wrong and nothing skipped.
 */
final class ReadAudit {
    /** What the reads found. */
    record Result(int reads, int refused, List<String> wrong) {
        boolean allRight() {
            return refused == 0 && wrong.isEmpty();
        }
    }

    private static final float SCORE_TOLERANCE = 1e-3f;
    private static final int K = 5;

    private final TalaDB db;
    private final ExpectedState expected;
    private final String damagedFile;
    private final Random random;
    private final List<String> wrong = new ArrayList<>();
    private int reads;
    private int refused;

    private ReadAudit(TalaDB db, ExpectedState expected, String damagedFile, Random random) {
        this.db = db;
        this.expected = expected;
        this.damagedFile = damagedFile;
        this.random = random;
    }

    /**
     * @param ids         every id ever written (deleted and dropped ones must read as the expected state says)
     * @param damagedFile the damaged file's name: the only file a refusal may name
     */
    static Result run(TalaDB db, ExpectedState expected, Set<IntentId> ids, String damagedFile, long seed) {
        ReadAudit audit = new ReadAudit(db, expected, damagedFile, new Random(seed));
        audit.runAll(ids);
        return new Result(audit.reads, audit.refused, List.copyOf(audit.wrong));
    }

    private void runAll(Set<IntentId> ids) {
        List<IntentId> probes = new ArrayList<>(ids);
        for (int i = 0; i < 5; i++) {
            probes.add(IntentId.of(random.nextLong(), random.nextLong())); // never written: must be absent
        }
        for (IntentId id : probes) {
            read("get " + id, () -> db.get(id), actual -> same("get " + id, expected.get(id), actual));
        }
        fullScan();
        read("countIntents", () -> {
            try (Snapshot s = db.snapshot()) {
                return s.countIntents();
            }
        }, n -> same("countIntents", (long) expected.inIdOrder().size(), n));
        timeScans();
        searches();
        for (IntentId id : ids) {
            read("edgesFrom " + id, () -> db.edgesFrom(id), hops -> same("edgesFrom " + id, expected.edgesFrom(id), hops));
            read("edgesTo " + id, () -> db.edgesTo(id),
                    hops -> same("edgesTo " + id, expected.edgesTo(id), ExpectedState.canonical(hops)));
        }
        traversals();
    }

    private void fullScan() {
        List<Intent> want = expected.inIdOrder();
        List<Intent> got = new ArrayList<>();
        read("forEachIntent", () -> {
            try (Snapshot s = db.snapshot()) {
                s.forEachIntent(got::add);
            }
            return got;
        }, all -> same("forEachIntent", want, all));
        prefix("forEachIntent (before it was refused)", want, got);
    }

    private void timeScans() {
        List<long[]> ranges = new ArrayList<>();
        ranges.add(new long[] {0, Long.MAX_VALUE});
        for (int i = 0; i < 3; i++) {
            long a = random.nextLong(Long.MAX_VALUE);
            long b = random.nextLong(Long.MAX_VALUE);
            ranges.add(new long[] {Math.min(a, b), Math.max(a, b)});
        }
        for (long[] r : ranges) {
            String what = "scan [" + r[0] + ", " + r[1] + ")";
            List<Intent> want = expected.scan(r[0], r[1]);
            List<Intent> got = new ArrayList<>();
            read(what, () -> {
                try (Snapshot s = db.snapshot()) {
                    s.scan(r[0], r[1], i -> got.add(i));
                }
                return got;
            }, all -> same(what, want, all));
            prefix(what + " (before it was refused)", want, got);
        }
    }

    private void searches() {
        List<SearchFilter> filters = List.of(SearchFilter.ALL, SearchFilter.ALL.withStatuses(EnumSet.of(Status.SUCCESS,
                Status.FAILURE)).withMinConfidence(0.3f).withTimeRange(0, Long.MAX_VALUE / 2));
        for (SearchFilter filter : filters) {
            for (int i = 0; i < 2; i++) {
                float[] q = new float[BaseDatabases.DIMENSION];
                for (int k = 0; k < q.length; k++) {
                    q[k] = (float) random.nextGaussian();
                }
                read("search", () -> db.search(q, K, filter), hits -> checkSearch(q, filter, hits));
            }
        }
    }

    /** Every hit is an expected intent the filter accepts, scored right, and none better was left out. */
    private void checkSearch(float[] q, SearchFilter filter, List<SearchHit> hits) {
        List<ExpectedState.Scored> ranked = expected.ranked(q, filter);
        int want = Math.min(K, ranked.size());
        if (hits.size() != want) {
            wrong.add("search returned " + hits.size() + " hits, expected " + want);
            return;
        }
        Set<IntentId> seen = new HashSet<>();
        for (SearchHit h : hits) {
            Optional<Intent> model = expected.get(h.intent().id());
            if (!seen.add(h.intent().id()) || model.isEmpty() || !model.get().equals(h.intent()) || !filter.accepts(h.intent())
                    || Math.abs(h.score() - ExpectedState.cosine(q, h.intent())) > SCORE_TOLERANCE) {
                wrong.add("search hit " + h + " is not an expected intent with its score (expected " + model + ")");
                return;
            }
        }
        double worst = hits.stream().mapToDouble(SearchHit::score).min().orElse(Double.MAX_VALUE);
        if (want > 0 && worst < ranked.get(want - 1).score() - SCORE_TOLERANCE) {
            wrong.add("search missed a better intent: worst hit scores " + worst + ", expected at least "
                    + ranked.get(want - 1).score());
        }
    }

    /** Every hop a traversal reports must be a real edge between live intents. */
    private void traversals() {
        List<Intent> live = expected.inIdOrder();
        for (int i = 0; i < Math.min(5, live.size()); i++) {
            IntentId start = live.get(random.nextInt(live.size())).id();
            read("traverse " + start, () -> db.traverse(start, 2, Set.of(), Direction.BOTH), hops -> {
                for (Hop h : hops) {
                    if (!expected.hasEdge(h)) {
                        wrong.add("traverse from " + start + " reported " + h + ", which is not an edge between live intents");
                        return;
                    }
                }
            });
        }
    }

    private <T> void read(String what, Supplier<T> read, Consumer<T> check) {
        reads++;
        T value;
        try {
            value = read.get();
        } catch (CorruptionException e) {
            refused++;
            if (!e.file().endsWith(damagedFile)) {
                wrong.add(what + " was refused naming " + e.file() + ", not the damaged " + damagedFile + ": " + e);
            }
            return;
        } catch (Throwable t) {
            wrong.add(what + " threw " + stackTrace(t));
            return;
        }
        check.accept(value);
    }

    private void same(String what, Object want, Object got) {
        if (!Objects.equals(want, got)) {
            wrong.add(what + ": expected " + want + " but read " + got);
        }
    }

    private void prefix(String what, List<Intent> want, List<Intent> got) {
        if (got.size() > want.size() || !want.subList(0, got.size()).equals(got)) {
            wrong.add(what + ": yielded " + got.size() + " intents that are not a prefix of the expected " + want.size());
        }
    }

    static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
