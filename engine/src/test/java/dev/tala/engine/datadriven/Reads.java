package dev.tala.engine.datadriven;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.core.testing.datadriven.TestCase;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.query.Direction;
import dev.tala.engine.query.Hop;
import dev.tala.engine.query.SearchFilter;
import dev.tala.engine.query.SearchHit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The read commands, against the database itself or, with {@code at=NAME}, against a snapshot
 * taken earlier. The database's own methods are called when no snapshot is named, so that both
 * paths of the API are what the files check.
 *
 * <pre>
 * get NAME...                                    every field, or "NAME not found"
 * scan [from=N] [to=N] [limit=N]                 "NAME ts=N" in scan order
 * search vec=(...) [k=N] [from=N] [to=N] [status=(s, ...)] [minconf=F]    "NAME score=0.7071"
 * edges-from NAME, edges-to NAME                 "a --retry--> b"
 * traverse NAME [depth=N] [rel=(r, ...)] [dir=out|in|both]    "depth=1 a --retry--> b"
 * count                                          the number of live intents
 * </pre>
 */
final class Reads {
    private final TalaDB db;
    private final Snapshot snapshot;

    /** Reads from {@code snapshot}, or from {@code db} when it is null. */
    Reads(TalaDB db, Snapshot snapshot) {
        this.db = db;
        this.snapshot = snapshot;
    }

    String run(TestCase c) {
        return switch (c.command()) {
            case "get" -> get(c);
            case "scan" -> scan(c);
            case "search" -> search(c);
            case "edges-from" -> Text.lines(hops(edgesFrom(WriteArgs.name(c)), false));
            case "edges-to" -> Text.lines(hops(edgesTo(WriteArgs.name(c)), false));
            case "traverse" -> traverse(c);
            case "count" -> (snapshot != null ? snapshot.countIntents() : db.stats().intents()) + "\n";
            default -> throw c.bad("unknown command " + c.command());
        };
    }

    static boolean isRead(String command) {
        return switch (command) {
            case "get", "scan", "search", "edges-from", "edges-to", "traverse", "count" -> true;
            default -> false;
        };
    }

    private String get(TestCase c) {
        List<String> names = c.words();
        if (names.isEmpty()) {
            throw c.bad("get takes one or more names");
        }
        List<String> lines = new ArrayList<>();
        for (String name : names) {
            IntentId id = IntentNames.id(c, name);
            Optional<Intent> found = snapshot != null ? snapshot.get(id) : db.get(id);
            lines.add(found.map(Text::intent).orElse(name + " not found"));
        }
        return Text.lines(lines);
    }

    private String scan(TestCase c) {
        long from = c.getLong("from", 0);
        long to = c.getLong("to", Long.MAX_VALUE);
        int limit = c.getInt("limit", Integer.MAX_VALUE);
        List<Intent> found = snapshot != null ? snapshot.scan(from, to, limit) : db.scan(from, to, limit);
        List<String> lines = new ArrayList<>();
        for (Intent i : found) {
            lines.add(IntentNames.name(i.id()) + " ts=" + i.timestampNs());
        }
        return Text.lines(lines);
    }

    private String search(TestCase c) {
        float[] vector = c.floats("vec");
        int k = c.getInt("k", 10);
        Set<Status> statuses = EnumSet.noneOf(Status.class);
        for (String s : c.list("status", List.of())) {
            statuses.add(WriteArgs.status(c, s));
        }
        SearchFilter filter = new SearchFilter(c.getLong("from", 0), c.getLong("to", Long.MAX_VALUE), statuses,
                c.getFloat("minconf", 0f));
        List<SearchHit> hits = snapshot != null ? snapshot.search(vector, k, filter) : db.search(vector, k, filter);
        return Text.lines(hits.stream().map(Text::hit).toList());
    }

    private String traverse(TestCase c) {
        IntentId start = WriteArgs.name(c);
        int depth = c.getInt("depth", 1);
        Set<Relation> relations = EnumSet.noneOf(Relation.class);
        for (String r : c.list("rel", List.of())) {
            relations.add(WriteArgs.relation(c, r));
        }
        Direction direction = switch (c.get("dir", "out")) {
            case "out" -> Direction.OUTGOING;
            case "in" -> Direction.INCOMING;
            case "both" -> Direction.BOTH;
            default -> throw c.bad("dir= is out, in or both");
        };
        List<Hop> hops = snapshot != null ? snapshot.traverse(start, depth, relations, direction)
                : db.traverse(start, depth, relations, direction);
        return Text.lines(hops(hops, true));
    }

    private List<Hop> edgesFrom(IntentId id) {
        return snapshot != null ? snapshot.edgesFrom(id) : db.edgesFrom(id);
    }

    private List<Hop> edgesTo(IntentId id) {
        return snapshot != null ? snapshot.edgesTo(id) : db.edgesTo(id);
    }

    private static List<String> hops(List<Hop> hops, boolean withDepth) {
        return hops.stream().map(h -> (withDepth ? "depth=" + h.depth() + " " : "") + Text.hop(h)).toList();
    }
}
