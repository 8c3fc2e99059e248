package dev.tala.engine.datadriven;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.core.testing.datadriven.TestCase;
import dev.tala.engine.WriteBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * The write commands' arguments, turned into what the API takes. Shared by the commands
 * themselves and by the lines of a {@code batch}, so both take the same syntax.
 *
 * <pre>
 * put NAME [ts=N] [cmd="..."] [vec=(x, y, ...)] [conf=F] [status=S] [ctx=N] [latency=N] [exit=N]
 *          [edges=(relation:target[:weight], ...)]
 * delete NAME
 * outcome NAME status=S [latency=N] [exit=N]
 * </pre>
 *
 * A put leaves out what the builder leaves out (timestamp 0, empty command, confidence 1,
 * pending, no outcome, no edges), except the embedding, which defaults to (1, 0, ..., 0) so that
 * stories about anything but search need not spell one out. An outcome without latency and exit
 * clears the outcome.
 */
final class WriteArgs {
    private WriteArgs() {
    }

    static Intent intent(TestCase c, int dimension) {
        Intent.Builder b = Intent.builder()
                .id(name(c))
                .timestampNs(c.getLong("ts", 0))
                .command(c.get("cmd", ""))
                .confidence(c.getFloat("conf", 1f))
                .status(status(c, c.get("status", "pending")))
                .contextHash(c.getLong("ctx", 0))
                .outcome(outcome(c))
                .embedding(c.has("vec") ? c.floats("vec") : unitVector(dimension))
                .edges(edges(c));
        return b.build();
    }

    /** The outcome {@code latency=} and {@code exit=} give, or null when neither is given. */
    static Outcome outcome(TestCase c) {
        boolean given = c.has("latency") | c.has("exit");
        return given ? new Outcome(c.getLong("latency", 0), c.getInt("exit", 0)) : null;
    }

    static List<Edge> edges(TestCase c) {
        List<Edge> edges = new ArrayList<>();
        for (String item : c.list("edges", List.of())) {
            String[] parts = item.split(":");
            if (parts.length < 2 || parts.length > 3) {
                throw c.bad("an edge is relation:target or relation:target:weight, got \"" + item + "\"");
            }
            float weight = 1f;
            if (parts.length == 3) {
                try {
                    weight = Float.parseFloat(parts[2]);
                } catch (NumberFormatException e) {
                    throw c.bad("the weight of edge \"" + item + "\" is not a number");
                }
            }
            edges.add(new Edge(IntentNames.id(c, parts[1]), relation(c, parts[0]), weight));
        }
        return edges;
    }

    static IntentId name(TestCase c) {
        return IntentNames.id(c, c.word());
    }

    /** The status labelled {@code label}; a misspelt one is a mistake of the file, not output. */
    static Status status(TestCase c, String label) {
        for (Status s : Status.values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw c.bad("no status " + label + " (pending, success, failure, partial)");
    }

    static Relation relation(TestCase c, String label) {
        for (Relation r : Relation.values()) {
            if (r.label().equals(label)) {
                return r;
            }
        }
        throw c.bad("no relation " + label + " (causal, temporal, dependency, retry, branch)");
    }

    /** Adds the write of one batch line to {@code batch}. */
    static void addTo(WriteBatch batch, TestCase line, int dimension) {
        switch (line.command()) {
            case "put" -> batch.put(intent(line, dimension));
            case "delete" -> batch.delete(name(line));
            case "outcome" -> batch.attachOutcome(name(line), status(line, line.get("status")), outcome(line));
            default -> throw line.bad("a batch holds put, delete and outcome lines, not " + line.command());
        }
    }

    private static float[] unitVector(int dimension) {
        float[] v = new float[dimension];
        v[0] = 1;
        return v;
    }
}
