package dev.tala.cli;

import static dev.tala.cli.InProcess.tala;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tala.cli.InProcess.Run;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentLimits;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A backup made with {@code tala export} and loaded with {@code tala import} into a new database
 * of the same options must give back every live intent exactly: for f32 the floats bit for bit,
 * for the lossy types the values the source database stored.
 */
class ExportImportFidelityTest {
    private static final int DIM = 8;

    @TempDir
    Path work;

    /** The export's bytes as written, not decoded and re-encoded through a String. */
    private static synchronized int exportTo(Path file, Path db) throws IOException {
        PrintStream out = System.out;
        try (OutputStream f = Files.newOutputStream(file); PrintStream ps = new PrintStream(f, true, StandardCharsets.UTF_8)) {
            System.setOut(ps);
            synchronized (InProcess.class) {
                return TalaCli.run("export", "--db", db.toString());
            }
        } finally {
            System.setOut(out);
        }
    }

    private Path init(String name, String dtype) {
        Path db = work.resolve(name);
        Run r = tala("init", "--db", db.toString(), "--dim", Integer.toString(DIM), "--dtype", dtype);
        assertEquals(0, r.exit(), r.err());
        return db;
    }

    private static List<Intent> live(Path db) {
        List<Intent> all = new ArrayList<>();
        try (TalaDB d = TalaDB.openReadOnly(db); Snapshot s = d.snapshot()) {
            s.forEachIntent(all::add);
        }
        return all;
    }

    /** Names the first intent that differs and how, instead of two unreadable lists. */
    private static void assertSameIntents(List<Intent> expected, List<Intent> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            Intent e = expected.get(i);
            Intent a = actual.get(i);
            if (!e.equals(a)) {
                StringBuilder why = new StringBuilder("intent " + i + " differs: " + e + " vs " + a);
                for (int k = 0; k < e.dimension() && k < a.dimension(); k++) {
                    if (Float.floatToRawIntBits(e.embedding(k)) != Float.floatToRawIntBits(a.embedding(k))) {
                        why.append("\n  embedding[").append(k).append("]: ").append(e.embedding(k)).append(" (0x")
                                .append(Integer.toHexString(Float.floatToRawIntBits(e.embedding(k)))).append(") vs ")
                                .append(a.embedding(k)).append(" (0x")
                                .append(Integer.toHexString(Float.floatToRawIntBits(a.embedding(k)))).append(")");
                    }
                }
                if (Float.floatToIntBits(e.confidence()) != Float.floatToIntBits(a.confidence())) {
                    why.append("\n  confidence: ").append(e.confidence()).append(" vs ").append(a.confidence());
                }
                if (!e.command().equals(a.command())) {
                    why.append("\n  command differs");
                }
                if (!e.edges().equals(a.edges())) {
                    why.append("\n  edges: ").append(e.edges()).append(" vs ").append(a.edges());
                }
                fail(why.toString());
            }
        }
        assertEquals(expected.size(), actual.size(), "intent count");
    }

    private static final float[] EDGE_FLOATS = {
        -0.0f, 0.0f, Float.MIN_VALUE, -Float.MIN_VALUE, 1e-45f, Float.MIN_NORMAL, Math.nextDown(Float.MIN_NORMAL),
        Float.MAX_VALUE, -Float.MAX_VALUE, Math.nextUp(1f), Math.nextDown(1f), 0.1f, 1f / 3, 16777216f,
        1.0E23f, 3.0000002f, 2.7182817f, 1.17549435E-38f, 9.999999e-39f, 123456.79f, -65504f, 65520f, 3.3895314e38f,
        1.0000001e-7f, 8.507059e37f, -1.5e-40f, 6.1035156e-5f, 5.9604645e-8f,
    };

    private static float[] vector(Random r, int i) {
        float[] v = new float[DIM];
        for (int k = 0; k < DIM; k++) {
            v[k] = switch ((i + k) % 4) {
                case 0 -> EDGE_FLOATS[(i * 7 + k) % EDGE_FLOATS.length];
                case 1 -> Float.intBitsToFloat(r.nextInt());
                case 2 -> (float) r.nextGaussian();
                default -> Float.intBitsToFloat(r.nextInt() & 0x807FFFFF); // subnormal or zero
            };
            if (!Float.isFinite(v[k])) {
                v[k] = Float.intBitsToFloat(r.nextInt(0x7F800000));
            }
        }
        return v;
    }

    private static final String[] COMMANDS = {
        "", "plain", "emoji 🚀 and 𝄞 (surrogate pairs)", "e\u0301 combining, \u0915\u094D\u0937 conjunct",
        "quote \" backslash \\ slash / tab \t cr \r lf \n", "nul \u0000 bell \u0007 esc \u001b del \u007f",
        "line sep \u2028 para sep \u2029 nel \u0085", "\uFEFFbom first", "\uFFFF noncharacter \uFFFE",
        "{\"op\":\"delete\",\"id\":\"x\"}\n{\"op\":\"put\"}", "\\u0041 literal escape text",
    };

    private static final float[] CONFIDENCES = {0f, 1f, -0.0f, Float.MIN_VALUE, Math.nextDown(1f), 0.1f, 0.5f};
    private static final long[] TIMESTAMPS = {0, IntentLimits.MAX_TIMESTAMP_NS, (1L << 53) + 1, 1756566993540933345L};
    private static final long[] HASHES = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, (1L << 53) + 1, -(1L << 53) - 1};
    private static final Outcome[] OUTCOMES = {
        null, new Outcome(0, 0), new Outcome(Long.MAX_VALUE, Integer.MIN_VALUE),
        new Outcome(Long.MAX_VALUE, Integer.MAX_VALUE), new Outcome((1L << 53) + 1, -1),
    };
    private static final float[] WEIGHTS = {1f, -0.0f, 0f, Float.MIN_VALUE, -Float.MAX_VALUE, 0.7f, Float.MAX_VALUE};

    /** Intents with every edge case of every field, some deleted, some updated by an outcome. */
    private static List<IntentId> fill(TalaDB db, int n, long seed) {
        Random r = new Random(seed);
        List<IntentId> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(IntentId.of(0x0198fb8d00007000L + i, 0x8000000000000000L | i));
        }
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < n; i++) {
            IntentId id = ids.get(i);
            List<Edge> edges = new ArrayList<>();
            Relation rel = Relation.values()[i % Relation.values().length];
            switch (i % 5) {
                case 0 -> { }
                case 1 -> edges.add(new Edge(id, rel, WEIGHTS[i % WEIGHTS.length])); // self edge
                case 2 -> { // duplicates, and one to an id that does not exist
                    edges.add(new Edge(ids.get((i + 1) % n), rel, -0.0f));
                    edges.add(new Edge(ids.get((i + 1) % n), rel, -0.0f));
                    edges.add(new Edge(IntentId.of(-1, -1), Relation.CAUSAL, Float.MIN_VALUE));
                }
                case 3 -> {
                    for (Relation each : Relation.values()) {
                        edges.add(new Edge(ids.get(r.nextInt(n)), each, WEIGHTS[r.nextInt(WEIGHTS.length)]));
                    }
                }
                default -> {
                    for (int e = 0; e < IntentLimits.MAX_EDGES; e++) {
                        edges.add(new Edge(IntentId.of(r.nextLong(), r.nextLong()), rel, Float.intBitsToFloat(r.nextInt(0x7F800000))));
                    }
                }
            }
            String command = COMMANDS[i % COMMANDS.length] + " #" + i;
            if (i == 3) {
                command = "ü".repeat(IntentLimits.MAX_COMMAND_BYTES / 2); // the largest command, in 2-byte chars
            } else if (i == 4) {
                command = "\u0000".repeat(IntentLimits.MAX_COMMAND_BYTES); // escaped to six bytes each
            }
            batch.put(Intent.builder().id(id).timestampNs(TIMESTAMPS[i % TIMESTAMPS.length])
                    .contextHash(HASHES[i % HASHES.length]).confidence(CONFIDENCES[i % CONFIDENCES.length])
                    .status(Status.values()[i % Status.values().length]).outcome(OUTCOMES[i % OUTCOMES.length])
                    .command(command).embedding(vector(r, i)).edges(edges).build());
        }
        db.write(batch);
        for (int i = 0; i < n; i += 9) {
            db.delete(ids.get(i));
        }
        for (int i = 1; i < n; i += 11) {
            if (i % 9 == 0) {
                continue; // deleted above
            }
            db.attachOutcome(ids.get(i), Status.PARTIAL, new Outcome(Long.MAX_VALUE, Integer.MIN_VALUE));
        }
        for (int i = 2; i < n; i += 13) {
            if (i % 9 == 0) {
                continue;
            }
            db.attachOutcome(ids.get(i), Status.SUCCESS, null);
        }
        return ids;
    }

    private void roundTrip(String dtype, boolean flushed) throws IOException {
        Path a = init("a", dtype);
        int n = 120;
        try (TalaDB db = TalaDB.open(a)) {
            fill(db, n, 42);
            if (flushed) {
                db.flush();
                db.compact();
            }
        }
        List<Intent> source = live(a);
        assertEquals(n - (n + 8) / 9, source.size(), "deleted intents are not live");
        Path file = work.resolve("a.jsonl");
        assertEquals(0, exportTo(file, a));
        assertEquals(source.size(), Files.readAllLines(file, StandardCharsets.UTF_8).size(), "one line per live intent");
        Path b = init("b", dtype);
        Run imported = tala("import", "--db", b.toString(), file.toString());
        assertEquals(0, imported.exit(), imported.err());
        assertSameIntents(source, live(b));
        // And once more from b: a backup of a restored database is the same file.
        Path again = work.resolve("b.jsonl");
        assertEquals(0, exportTo(again, b));
        assertEquals(Files.readString(file), Files.readString(again));
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32", "f16", "bf16", "int8"})
    void everyEdgeCaseRoundTripsFromTheMemtable(String dtype) throws IOException {
        roundTrip(dtype, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"f32", "f16", "bf16", "int8"})
    void everyEdgeCaseRoundTripsFromACompactedSegment(String dtype) throws IOException {
        roundTrip(dtype, true);
    }

    /** A float written as the double it widens to, as other tools print floats, reads back as that float. */
    @Test
    void importRoundsDecimalTextToTheNearestFloat() throws IOException {
        Path b = init("b", "f32");
        // 1 + 2^-24 is halfway between 1 and the next float; a hair above must round up. Rounding
        // the text to a double first lands on the halfway point and then ties down to 1.
        String hairAbove = "1.000000059604644775390625000001";
        String line = "{\"id\":\"0198fb8c-5051-7d66-be1d-5e1057fac2e4\",\"timestamp\":1,\"command\":\"x\",\"embedding\":["
                + hairAbove + "," + (double) 0.1f + "," + (double) Float.MIN_VALUE + ",1e-46,7.0064923216240854e-46,"
                + "0.7e-45,-0,-0.0]}";
        Files.writeString(work.resolve("in.jsonl"), line + "\n");
        Run r = tala("import", "--db", b.toString(), work.resolve("in.jsonl").toString());
        assertEquals(0, r.exit(), r.err());
        float[] got = live(b).getFirst().embedding();
        float[] want = {Math.nextUp(1f), 0.1f, Float.MIN_VALUE, 0f, Float.MIN_VALUE, 0f, -0.0f, -0.0f};
        for (int k = 0; k < DIM; k++) {
            assertEquals(Float.floatToRawIntBits(want[k]), Float.floatToRawIntBits(got[k]),
                    "value " + k + ": wanted " + want[k] + ", got " + got[k]);
        }
    }

    private static String put(int i, int dim) {
        StringBuilder v = new StringBuilder();
        for (int k = 0; k < dim; k++) {
            v.append(k == 0 ? "" : ",").append(0.5f + i);
        }
        return "{\"id\":\"" + idOf(i) + "\",\"timestamp\":" + (1000 + i) + ",\"command\":\"c" + i + "\",\"embedding\":[" + v + "]}";
    }

    private static String idOf(int i) {
        return String.format("0198fb8c-0000-7000-8000-%012x", i);
    }

    /**
     * At the first bad line the import stops, keeping every line before it (docs/CLI.md,
     * import); a bad line found when its batch is written (an outcome for an unknown id) counts
     * the same as one that does not parse.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 511, 512, 513, 700, 1024, 1025, 1100})
    void anImportStoppedByABadLineKeepsExactlyTheLinesBeforeIt(int badLine) throws IOException {
        for (String bad : List.of("{\"id\":\"" + idOf(99999) + "\",\"timestamp\":1,\"command\":\"x\",\"embedding\":[1]}",
                "{\"op\":\"outcome\",\"id\":\"" + idOf(99999) + "\",\"status\":\"success\"}")) {
            Path db = work.resolve("db" + badLine + bad.length());
            assertEquals(0, tala("init", "--db", db.toString(), "--dim", Integer.toString(DIM)).exit());
            List<String> lines = new ArrayList<>();
            for (int i = 1; i <= 1200; i++) {
                lines.add(i == badLine ? bad : put(i, DIM));
            }
            Path file = work.resolve("in.jsonl");
            Files.write(file, lines);
            Run r = tala("import", "--db", db.toString(), file.toString());
            assertEquals(1, r.exit());
            assertTrue(r.err().startsWith("tala import: " + file + ":" + badLine + ": "), r.err());
            List<Intent> kept = live(db);
            assertEquals(badLine - 1, kept.size(), r.err());
            for (int i = 0; i < kept.size(); i++) {
                assertEquals(idOf(i + 1), kept.get(i).id().toString());
            }
        }
    }

    /** An outcome line for an intent put earlier in the same batch finds it. */
    @Test
    void anOutcomeLineForAnIntentPutInTheSameBatchApplies() throws IOException {
        Path db = init("b", "f32");
        Path file = work.resolve("in.jsonl");
        Files.write(file, List.of(put(1, DIM), "{\"op\":\"outcome\",\"id\":\"" + idOf(1)
                + "\",\"status\":\"failure\",\"latency_ns\":9223372036854775807,\"exit_code\":-2147483648}",
                put(2, DIM), "{\"op\":\"delete\",\"id\":\"" + idOf(2) + "\"}"));
        Run r = tala("import", "--db", db.toString(), file.toString());
        assertEquals(0, r.exit(), r.err());
        List<Intent> got = live(db);
        assertEquals(1, got.size());
        assertEquals(Status.FAILURE, got.getFirst().status());
        assertEquals(new Outcome(Long.MAX_VALUE, Integer.MIN_VALUE), got.getFirst().outcome());
    }

    /** An export of another dimension is refused at its first line, naming the dimensions. */
    @Test
    void anExportOfAnotherDimensionIsRefusedAtItsFirstLine() throws IOException {
        Path a = work.resolve("a4");
        assertEquals(0, tala("init", "--db", a.toString(), "--dim", "4").exit());
        Path in = work.resolve("four.jsonl");
        Files.write(in, List.of(put(1, 4), put(2, 4)));
        assertEquals(0, tala("import", "--db", a.toString(), in.toString()).exit());
        Path file = work.resolve("a.jsonl");
        assertEquals(0, exportTo(file, a));
        Path b = init("b", "f32");
        Run r = tala("import", "--db", b.toString(), file.toString());
        assertEquals(1, r.exit());
        assertEquals("tala import: " + file + ":1: embedding: has 4 values but the database's dimension is 8\n", r.err());
        assertEquals(0, live(b).size());
    }

    /**
     * An export taken while a writer has the database open sees every write the writer had
     * acknowledged with SYNC durability, flushed or still in the WAL.
     */
    @Test
    void anExportBesideAnOpenWriterHasEveryAcknowledgedWrite() throws IOException {
        Path a = init("a", "f32");
        try (TalaDB db = TalaDB.open(a)) {
            fill(db, 60, 7);
            db.flush();
            fill(db, 60, 8); // the same ids again, newer versions only in the WAL and memtable
            List<Intent> expected = new ArrayList<>();
            try (Snapshot s = db.snapshot()) {
                s.forEachIntent(expected::add);
            }
            Path file = work.resolve("a.jsonl");
            assertEquals(0, exportTo(file, a));
            Path b = init("b", "f32");
            Run r = tala("import", "--db", b.toString(), file.toString());
            assertEquals(0, r.exit(), r.err());
            assertSameIntents(expected, live(b));
        }
    }

    /**
     * Versions of one id spread over segments and the memtable: a tombstone in the memtable over
     * a flushed put, a put over a flushed tombstone, an outcome update over a flushed version.
     * Only the newest live version of each is exported, and it comes back as it was.
     */
    @ParameterizedTest
    @ValueSource(strings = {"f32", "int8"})
    void onlyTheNewestLiveVersionAcrossSegmentsAndMemtableIsExported(String dtype) throws IOException {
        Path a = init("a", dtype);
        List<Intent> expected = new ArrayList<>();
        try (TalaDB db = TalaDB.open(a)) {
            List<IntentId> ids = fill(db, 40, 1);
            db.flush();
            for (int i = 1; i < 40; i += 4) {
                if (i % 9 != 0) {
                    db.delete(ids.get(i)); // the put is in a segment, the tombstone in a newer one
                }
            }
            db.flush();
            for (int i = 3; i < 40; i += 4) {
                if (i % 9 != 0) {
                    db.attachOutcome(ids.get(i), Status.FAILURE, new Outcome(5, 28));
                }
            }
            db.flush();
            for (int i = 0; i < 40; i += 9) {
                db.put(Intent.builder().id(ids.get(i)).timestampNs(i).command("back " + i)
                        .embedding(vector(new Random(i), i)).build()); // over a tombstone in a segment
            }
            for (int i = 2; i < 40; i += 4) {
                if (i % 9 != 0) {
                    db.delete(ids.get(i)); // the tombstone only in the memtable
                }
            }
            try (Snapshot s = db.snapshot()) {
                s.forEachIntent(expected::add);
            }
        }
        assertSameIntents(expected, live(a));
        Path file = work.resolve("a.jsonl");
        assertEquals(0, exportTo(file, a));
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(expected.size(), lines.size());
        Path b = init("b", dtype);
        Run r = tala("import", "--db", b.toString(), file.toString());
        assertEquals(0, r.exit(), r.err());
        assertSameIntents(expected, live(b));
    }

    /**
     * The export names no embedding type, so an f32 export loaded into an int8 database is
     * accepted and each vector quantized, without a warning: a copy keeps the bits only into a
     * database of the same type.
     */
    @Test
    void anF32ExportLoadedIntoAnInt8DatabaseIsQuantized() throws IOException {
        Path a = init("a", "f32");
        try (TalaDB db = TalaDB.open(a)) {
            fill(db, 10, 3);
        }
        Path file = work.resolve("a.jsonl");
        assertEquals(0, exportTo(file, a));
        Path b = init("b", "int8");
        Run r = tala("import", "--db", b.toString(), file.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals("", r.err());
        List<Intent> source = live(a);
        List<Intent> copy = live(b);
        assertEquals(source.size(), copy.size());
        int changed = 0;
        for (int i = 0; i < source.size(); i++) {
            changed += java.util.Arrays.equals(source.get(i).embedding(), copy.get(i).embedding()) ? 0 : 1;
        }
        assertTrue(changed > 0, "some vectors were quantized");
    }

    /**
     * Exports taken again and again while a writer in this process puts, flushes and compacts
     * (a 4 KiB memtable, so the MANIFEST changes every few milliseconds). Each export either
     * holds every intent acknowledged before it began, or refuses with the documented "changed
     * while it was read ... try again" (a read-only open gives up after five attempts beside
     * such a writer; on a loaded machine every attempt can lose). Once the writer has closed,
     * an export must succeed and hold every acknowledged write.
     */
    @Test
    void exportsWhileAWriterFlushesAndCompactsHoldEveryEarlierWriteOrSayTryAgain() throws Exception {
        Path a = work.resolve("a");
        assertEquals(0, tala("init", "--db", a.toString(), "--dim", Integer.toString(DIM), "--memtable-kb", "4").exit());
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        int runs = 0;
        try (TalaDB db = TalaDB.open(a)) {
            Thread writer = new Thread(() -> {
                try {
                    Random r = new Random(3);
                    for (int i = 0; !stop.get(); i++) {
                        db.put(Intent.builder().id(IntentId.of(0x0198fb8d00007000L, i)).timestampNs(i)
                                .command("w" + i).embedding(vector(r, i)).build());
                        acknowledged.set(i + 1);
                    }
                } catch (Throwable t) {
                    writerFailure.set(t);
                }
            });
            writer.start();
            try {
                long end = System.nanoTime() + 3_000_000_000L;
                while (System.nanoTime() < end) {
                    int before = acknowledged.get();
                    Path file = work.resolve("e" + runs + ".jsonl");
                    Export export = exportCapturingErrors(file, a);
                    if (export.exit() != 0) {
                        assertTrue(export.errors().contains("changed while it was read") && export.errors().contains("try again"),
                                "export " + runs + " after " + before + " writes: " + export.errors());
                    } else {
                        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                        assertTrue(lines.size() >= before, "export " + runs + ": " + lines.size() + " lines, "
                                + before + " writes acknowledged before it began");
                    }
                    Files.deleteIfExists(file);
                    runs++;
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            assertEquals(null, writerFailure.get());
        }
        assertTrue(runs > 3, "only " + runs + " exports ran");
        Path last = work.resolve("last.jsonl");
        Export export = exportCapturingErrors(last, a);
        assertEquals(0, export.exit(), export.errors());
        assertEquals(acknowledged.get(), Files.readAllLines(last, StandardCharsets.UTF_8).size(),
                "the export after the writer closed holds every acknowledged write");
    }

    private record Export(int exit, String errors) {
    }

    private Export exportCapturingErrors(Path file, Path db) throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
            int exit = exportTo(file, db);
            return new Export(exit, errors.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
    }

    /**
     * 270 valid lines of 65,536 floats are more than one atomic write may carry (64 MiB), so
     * the import's batch of 512 is refused whole; every line must still be imported.
     */
    @Test
    void aBatchOfLinesTooLargeForOneWriteIsStillImportedWhole() throws IOException {
        Path db = work.resolve("big");
        assertEquals(0, tala("init", "--db", db.toString(), "--dim", "65536").exit());
        String embedding = ",\"embedding\":[" + "1.5,".repeat(65535) + "-0.0]}";
        Path file = work.resolve("big.jsonl");
        try (var out = Files.newBufferedWriter(file)) {
            for (int i = 1; i <= 270; i++) {
                out.write("{\"id\":\"" + idOf(i) + "\",\"timestamp\":" + i + ",\"command\":\"c\"" + embedding + "\n");
            }
        }
        Run r = tala("import", "--db", db.toString(), file.toString());
        assertEquals(0, r.exit(), r.err());
        try (TalaDB d = TalaDB.openReadOnly(db); Snapshot s = d.snapshot()) {
            assertEquals(270, s.countIntents());
            float[] last = s.get(IntentId.parse(idOf(270))).orElseThrow().embedding();
            assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(last[65535]));
        }
    }
}
