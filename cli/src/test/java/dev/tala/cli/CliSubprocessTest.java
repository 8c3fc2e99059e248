package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.RealMount;
import dev.tala.core.model.Intent;
import dev.tala.core.testing.RandomIntents;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every command as a separate process (java with the project's JVM flags, as bin/tala
 * does) against a fresh database, checking output and exit status, and checks that bad input
 * gives one clear line on stderr and changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CliSubprocessTest {
    static final int DIM = 8;
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;
    Path db;
    Path data;
    List<Intent> intents = new ArrayList<>();

    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        /** stderr without the JVM's own start-up notice about the incubating Vector API. */
        List<String> errLines() {
            return err.lines().filter(l -> !l.startsWith("WARNING: Using incubator modules")).toList();
        }
    }

    static Run tala(String stdin, String... args) throws IOException, InterruptedException {
        return tala(stdin, ProcessBuilder.Redirect.PIPE, args);
    }

    static List<String> commandLine(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("@" + Path.of(System.getProperty("tala.repo", "..")).resolve("jvm.options"));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(TalaCli.class.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs tala with its stdout sent to {@code stdout} (read back only when it is a pipe). */
    static Run tala(String stdin, ProcessBuilder.Redirect stdout, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = commandLine(args);
        // stderr goes to a file so that a child writing a lot to it cannot block while we read stdout.
        Path errFile = Files.createTempFile(work, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectError(errFile.toFile()).redirectOutput(stdout);
        // The locale of cron, systemd units and many containers: output must be UTF-8 all the same
        // (get --json turned every non-ASCII character into '?' under it).
        builder.environment().put("LC_ALL", "C");
        builder.environment().put("LANG", "C");
        Process p = builder.start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "tala " + String.join(" ", args) + " finished");
        String err = Files.readString(errFile, StandardCharsets.UTF_8);
        Files.delete(errFile);
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), err);
    }

    private static List<String> fieldNames(java.util.Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    static Run ok(String stdin, String... args) throws Exception {
        Run r = tala(stdin, args);
        assertEquals(0, r.exit, "tala " + String.join(" ", args) + " failed: " + r.err);
        return r;
    }

    /** A failure must be exactly one line on stderr, naming the command, and a non-zero exit. */
    static Run fails(String expectedInMessage, String stdin, String... args) throws Exception {
        Run r = tala(stdin, args);
        assertTrue(r.exit != 0, "tala " + String.join(" ", args) + " should fail: " + r.out);
        List<String> err = r.errLines();
        assertEquals(1, err.size(), "one line on stderr: " + err);
        assertTrue(err.getFirst().startsWith("tala ") || err.getFirst().startsWith("tala: "), err.getFirst());
        assertTrue(err.getFirst().contains(expectedInMessage), err.getFirst());
        return r;
    }

    /**
     * Copies the test database to {@code copy} and flips {@code mask} into one byte of its
     * first segment, at the offset {@code at} picks from the file's length; returns the segment.
     */
    private Path copyWithOneSegmentByteFlipped(Path copy, java.util.function.IntUnaryOperator at, int mask)
            throws IOException {
        FileTrees.copy(db, copy);
        Path segment;
        try (var files = Files.list(copy.resolve("segments"))) {
            segment = files.findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(segment);
        bytes[at.applyAsInt(bytes.length)] ^= (byte) mask;
        Files.write(segment, bytes);
        return segment;
    }

    @BeforeAll
    void data() throws IOException {
        db = work.resolve("db");
        data = work.resolve("intents.jsonl");
        RandomIntents gen = new RandomIntents(99, DIM);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            Intent x = gen.next();
            intents.add(x);
            lines.append(JsonLinesWriter.toLine(x)).append('\n');
        }
        Files.writeString(data, lines);
    }

    @Test
    @Order(1)
    void initImportExportRoundTripsEveryField() throws Exception {
        Run init = ok(null, "init", "--db", db.toString(), "--dim", Integer.toString(DIM), "--memtable-kb", "64");
        assertTrue(init.out.contains("created an empty database"), init.out);
        Run imported = ok(null, "import", "--db", db.toString(), data.toString());
        assertTrue(imported.out.contains("imported 300 lines"), imported.out);
        Run exported = ok(null, "export", "--db", db.toString());
        List<String> expected = intents.stream().sorted((a, b) -> a.id().compareTo(b.id())).map(JsonLinesWriter::toLine).toList();
        assertEquals(expected, exported.outLines(), "import then export gives back every field");
    }

    /**
     * Output that cannot be written is a failure (PrintStream swallowed it: an export to a full
     * disk wrote nothing and exited 0); a reader that stops early is not.
     */
    @Test
    @Order(2)
    void outputToAFullDiskFailsAndAClosedPipeDoesNot() throws Exception {
        ProcessBuilder.Redirect full = ProcessBuilder.Redirect.to(new java.io.File("/dev/full"));
        Run export = tala(null, full, "export", "--db", db.toString());
        assertEquals(1, export.exit, export.err);
        assertTrue(export.errLines().getFirst().startsWith("tala export: cannot write the output: "), export.err);
        Run stats = tala(null, full, "stats", "--db", db.toString(), "--json");
        assertEquals(1, stats.exit, stats.err);
        assertTrue(stats.err.contains("tala stats: cannot write the output: "), stats.err);

        String quoted = String.join(" ", commandLine("export", "--db", db.toString()).stream()
                .map(a -> "'" + a + "'").toList());
        Process head = new ProcessBuilder("bash", "-c", "set -o pipefail; " + quoted + " 2>&1 | head -c 100")
                .redirectErrorStream(true).start();
        String shown = new String(head.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(head.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, head.exitValue(), shown);
    }

    @Test
    @Order(2)
    void queriesAndAdminCommands() throws Exception {
        Intent some = intents.get(7);
        Intent nonAscii = intents.stream().filter(x -> x.command().chars().anyMatch(c -> c > 127)).findFirst()
                .orElseThrow();
        for (Intent x : List.of(some, nonAscii)) {
            Run get = ok(null, "get", "--db", db.toString(), x.id().toString(), "--json");
            assertEquals(JsonLinesWriter.toLine(x), get.out.strip());
        }
        Run getTable = ok(null, "get", "--db", db.toString(), some.id().toString());
        assertTrue(getTable.out.contains(some.id().toString()) && getTable.out.contains("status"), getTable.out);

        Run stats = ok(null, "stats", "--db", db.toString(), "--json");
        JsonNode s = JSON.readTree(stats.out);
        assertEquals(300, s.get("intents").asLong());
        for (String field : List.of("segments", "memtable_bytes", "wal_bytes")) {
            assertTrue(s.has(field), "stats has " + field + ": " + stats.out);
        }

        long from = intents.stream().mapToLong(Intent::timestampNs).min().orElseThrow();
        Run scan = ok(null, "scan", "--db", db.toString(), "--from", Long.toString(from), "--to",
                Long.toString(Long.MAX_VALUE), "--limit", "5", "--json");
        assertEquals(5, scan.outLines().size(), scan.out);
        assertTrue(scan.outLines().getFirst().contains("\"timestamp\":" + from), scan.out);

        Intent withEdges = intents.stream().filter(i -> !i.edges().isEmpty()).findFirst().orElseThrow();
        Run neighbors = ok(null, "neighbors", "--db", db.toString(), withEdges.id().toString(), "--depth", "2", "--json");
        for (String line : neighbors.outLines()) {
            JsonNode n = JSON.readTree(line);
            for (String f : List.of("from", "to", "relation", "weight", "depth")) {
                assertTrue(n.has(f), line);
            }
        }

        Run like = ok(null, "search", "--db", db.toString(), "--like", some.id().toString(), "-k", "3", "--json");
        assertEquals(3, like.outLines().size(), like.out);
        for (String line : like.outLines()) {
            JsonNode hit = JSON.readTree(line);
            assertTrue(hit.has("score") && !hit.get("id").asText().equals(some.id().toString()), line);
        }
        StringBuilder vector = new StringBuilder("[");
        for (int i = 0; i < DIM; i++) {
            vector.append(i == 0 ? "" : ",").append(some.embedding(i));
        }
        Run near = ok(null, "search", "--db", db.toString(), "--vector", vector + "]", "-k", "1", "--json");
        JsonNode best = JSON.readTree(near.out);
        assertEquals(some.id().toString(), best.get("id").asText(), "a vector finds its own intent first");
        assertEquals(1.0, best.get("score").asDouble(), 1e-5);

        Run compact = ok(null, "compact", "--db", db.toString(), "--full", "--json");
        assertEquals(1, JSON.readTree(compact.out).get("segments_after").asInt(), compact.out);
        Run segments = ok(null, "segments", "--db", db.toString(), "--json");
        JsonNode list = JSON.readTree(segments.out);
        assertEquals(1, list.size());
        assertTrue(list.get(0).get("compacted").asBoolean());
        assertEquals(300, list.get(0).get("nodes").asLong());

        Run verify = ok(null, "verify", "--db", db.toString());
        assertTrue(verify.out.startsWith("clean"), verify.out);
        Run recover = ok(null, "recover", "--db", db.toString(), "--mode", "point-in-time", "--json");
        assertTrue(JSON.readTree(recover.out).get("clean").asBoolean(), recover.out);
        // A repair's actions print their fields in one order, run after run.
        Path repaired = work.resolve("repaired");
        FileTrees.copy(db, repaired);
        Files.write(new dev.tala.core.layout.DatabaseLayout(repaired).segmentFile(9999), new byte[100]);
        JsonNode actions = JSON.readTree(ok(null, "recover", "--db", repaired.toString(), "--json").out).get("actions");
        assertEquals(List.of("action", "file", "reason"), fieldNames(actions.get(0).fieldNames()));

        Path segment = Files.list(db.resolve("segments")).findFirst().orElseThrow();
        Run inspect = ok(null, "inspect", segment.toString(), "--json");
        JsonNode in = JSON.readTree(inspect.out);
        assertEquals(0, in.get("problems").size());
        assertEquals(300, in.get("header").get("node_count").asLong());

        Run help = ok(null, "help", "crashtest");
        assertTrue(help.out.contains("Example"), help.out);

        // The human forms: aligned tables with a header line.
        Run scanTable = ok(null, "scan", "--db", db.toString(), "--from", Long.toString(from), "--to",
                Long.toString(Long.MAX_VALUE), "--limit", "3");
        assertTrue(scanTable.outLines().getFirst().contains("id"), scanTable.out);
        assertTrue(scanTable.out.contains(intents.stream().filter(i -> i.timestampNs() == from).findFirst()
                .orElseThrow().id().toString()), scanTable.out);
        assertEquals("3 intents (more in the range; raise --limit)", scanTable.outLines().getLast());
        // From an audit: a range holding exactly the limit said the limit had cut it.
        long inRange = intents.stream().filter(i -> i.timestampNs() >= from).count();
        Run exact = ok(null, "scan", "--db", db.toString(), "--from", Long.toString(from), "--to",
                Long.toString(Long.MAX_VALUE), "--limit", Long.toString(inRange));
        assertEquals(inRange + " intents", exact.outLines().getLast());
        Run likeTable = ok(null, "search", "--db", db.toString(), "--like", some.id().toString(), "-k", "3");
        assertTrue(likeTable.outLines().getFirst().contains("score"), likeTable.out);
        Run segmentsTable = ok(null, "segments", "--db", db.toString());
        assertTrue(segmentsTable.outLines().getFirst().contains("level"), segmentsTable.out);
    }

    @Test
    @Order(7)
    void benchComparesBothStoresAndGivesEveryRatio() throws Exception {
        // A smoke run at a small size: the figures mean nothing here, their presence does.
        Run r = ok(null, "bench", "--intents", "2000", "--json", "--db", work.resolve("bench").toString());
        JsonNode report = JSON.readTree(r.out());
        for (String ratio : List.of("put", "put_sync", "get", "scan", "search", "compaction", "recovery", "space")) {
            assertTrue(report.get("ratios").has(ratio), "ratio " + ratio + ": " + r.out());
            assertTrue(report.get("ratios").get(ratio).asDouble() > 0, "ratio " + ratio + ": " + r.out());
        }
        assertFalse(Files.exists(work.resolve("bench")), "the work directory is deleted afterwards");
    }

    @Test
    @Order(6)
    void verifyListsTheDamageAndExitsOne() throws Exception {
        Path damaged = work.resolve("damaged");
        // Inside a region, past the header: open succeeds, a checksum fails.
        Path segment = copyWithOneSegmentByteFlipped(damaged, length -> length / 2, 0x10);

        Run table = tala(null, "verify", "--db", damaged.toString());
        assertEquals(1, table.exit(), table.out() + table.err());
        assertTrue(table.out().contains(segment.getFileName().toString()), table.out());
        assertTrue(table.outLines().getLast().matches("\\d+ problems? in \\d+ files checked"), table.out());
        Run json = tala(null, "verify", "--db", damaged.toString(), "--json");
        assertEquals(1, json.exit());
        JsonNode report = JSON.readTree(json.out());
        assertFalse(report.get("clean").asBoolean());
        assertTrue(report.get("problems").size() > 0, json.out());

        // A segment cut short: inspect keeps its JSON shape, with no footer to show.
        Path cut = work.resolve("cut.tbf");
        Files.write(cut, java.util.Arrays.copyOf(Files.readAllBytes(segment), 1000));
        Run inspect = tala(null, "inspect", cut.toString(), "--json");
        assertEquals(1, inspect.exit(), inspect.err());
        JsonNode described = JSON.readTree(inspect.out());
        assertTrue(described.get("footer").isNull(), inspect.out());
        assertEquals(0, described.get("regions").size(), inspect.out());
        assertTrue(described.get("problems").size() > 0, inspect.out());
        assertTrue(tala(null, "inspect", cut.toString()).out().contains("problem"), "the text form prints");
        fails("is a directory", null, "inspect", damaged.toString());

        // What every open refuses, verify reports, though every checksum matches: a bit flip in
        // OPTIONS that changes the dimension (the open blamed the first segment), and a segment
        // whose header names another id (header checksum recomputed: a file restored under the
        // wrong name). verify called both clean.
        Path otherDimension = work.resolve("other-dimension");
        FileTrees.copy(db, otherDimension);
        Path options = otherDimension.resolve("OPTIONS");
        Files.writeString(options, Files.readString(options).replace("dimension=" + DIM, "dimension=" + (DIM + 1)));
        Run dimension = tala(null, "verify", "--db", otherDimension.toString());
        assertEquals(1, dimension.exit(), dimension.out());
        assertTrue(dimension.out().contains("embedding dimension " + DIM + ", but OPTIONS says " + (DIM + 1)),
                dimension.out());
        Path renamed = work.resolve("renamed");
        FileTrees.copy(db, renamed);
        Path first;
        try (var files = Files.list(renamed.resolve("segments"))) {
            first = files.filter(f -> f.toString().endsWith(".tbf")).sorted().findFirst().orElseThrow();
        }
        byte[] header = Files.readAllBytes(first);
        java.nio.ByteBuffer h = java.nio.ByteBuffer.wrap(header).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        h.putLong(8, h.getLong(8) + 1000);
        h.putInt(104, dev.tala.core.checksum.Crc32c.of(header, 0, 104));
        Files.write(first, header);
        Run wrongId = tala(null, "verify", "--db", renamed.toString());
        assertEquals(1, wrongId.exit(), wrongId.out());
        assertTrue(wrongId.out().contains("header names segment"), wrongId.out());
    }

    @Test
    @Order(3)
    void demoCreatesAndThenAddsToADatabase() throws Exception {
        Path demo = work.resolve("demo");
        Run first = ok(null, "demo", "--db", demo.toString(), "--intents", "3000");
        for (String section : List.of("One intent, by id", "around it", "Commands like", "The chain that led to it",
                "The database")) {
            assertTrue(first.out.contains(section), "demo shows " + section + ":\n" + first.out);
        }
        Run second = ok(null, "demo", "--db", demo.toString(), "--intents", "1000");
        assertTrue(second.out.contains("already holds 3,000 intents; adding 1,000 more"), second.out);
        JsonNode stats = JSON.readTree(ok(null, "stats", "--db", demo.toString(), "--json").out);
        assertEquals(4000, stats.get("intents").asLong());

        // --json: one JSON object on stdout and nothing else (it printed the tables before).
        Run json = ok(null, "demo", "--db", demo.toString(), "--intents", "2000", "--json");
        assertEquals(1, json.outLines().size(), json.out);
        JsonNode report = JSON.readTree(json.out);
        assertEquals(4000, report.get("intents_before").asLong());
        assertEquals(2000, report.get("intents_added").asLong());
        assertEquals(6000, report.get("stats").get("intents").asLong());
        String failure = report.get("failure").get("id").asText();
        assertEquals("failure", report.get("failure").get("status").asText(), report.toString());
        JsonNode got = JSON.readTree(ok(null, "get", failure, "--db", demo.toString(), "--json").out);
        assertEquals(report.get("failure").get("command").asText(), got.get("command").asText());
        assertTrue(report.get("similar").size() > 0 && report.get("similar").get(0).has("score"), report.toString());
        assertTrue(report.get("window").size() > 0, report.toString());
    }

    @Test
    @Order(4)
    void crashtestReportsItsSummaryLine() throws Exception {
        // Without --db it works in a new temporary directory (./tala-data may well hold a database).
        Run r = ok(null, "crashtest", "--duration", "4", "--mode", "power", "--seed", "1");
        String last = r.outLines().getLast();
        assertTrue(last.matches("crashtest: [1-9][\\d,]* crash(es)?, [\\d,]+ acknowledged writes? checked, 0 lost, 0 corrupt"), last);
        String first = r.outLines().getFirst();
        Path usedDir = Path.of(first.substring(first.indexOf("work directory ") + "work directory ".length()));
        assertTrue(usedDir.getFileName().toString().startsWith("tala-crashtest"), first);
        assertFalse(Files.exists(usedDir), "a passing run deletes its work directory: " + usedDir);
        // 5 s: with the machine loaded (a long test run and two builds beside it), 3 s once gave a
        // single round whose child acknowledged nothing in the 592 ms it was given.
        Run none = ok(null, "crashtest", "--db", work.resolve("crash-none").toString(), "--duration", "5", "--mode",
                "kill", "--durability", "none", "--seed", "2");
        assertTrue(none.outLines().getFirst().contains("kill-mode durability none"), none.outLines().getFirst());
        String noneLast = none.outLines().getLast();
        assertTrue(noneLast.matches("crashtest: [1-9][\\d,]* crash(es)?, [1-9][\\d,]* acknowledged writes? checked, 0 lost, 0 corrupt"),
                noneLast);
    }

    @Test
    @Order(5)
    void badInputGivesOneLineAndChangesNothing() throws Exception {
        String before = ok(null, "export", "--db", db.toString()).out;
        Files.write(work.resolve("wrong-dim.jsonl"), List.of(JsonLinesWriter.toLine(new RandomIntents(1, DIM).next()),
                JsonLinesWriter.toLine(new RandomIntents(2, DIM + 1).next())));
        fails("wrong-dim.jsonl:2: embedding: has 9 values but the database's dimension is 8", null,
                "import", "--db", db.toString(), work.resolve("wrong-dim.jsonl").toString());
        Files.write(work.resolve("wrong-dim-first.jsonl"),
                List.of(JsonLinesWriter.toLine(new RandomIntents(4, DIM + 2).next())));
        fails("wrong-dim-first.jsonl:1: embedding: has 10 values", null,
                "import", "--db", db.toString(), work.resolve("wrong-dim-first.jsonl").toString());
        fails("<stdin>:1: malformed JSON", "{\"id\": ", "import", "--db", db.toString(), "-");
        Run usage = fails("Unknown options: '--form'", null, "scan", "--db", db.toString(), "--from", "0", "--to",
                "5", "--form", "5");
        assertEquals(2, usage.exit(), "a usage error exits 2");
        assertTrue(usage.errLines().getFirst().endsWith("(see 'tala scan --help')"), usage.err());
        Run misplaced = fails("options go after the command name: tala stats --db " + db + " --json", null,
                "--db", db.toString(), "stats", "--json");
        assertEquals(2, misplaced.exit(), "options before the command are a usage error");
        fails("is not a UUID", null, "get", "--db", db.toString(), "12345");
        // '@FILE' is an argument like any other: picocli used to read the file whole into memory
        // as more arguments (a 64 MiB one ran the CLI out of heap).
        Path argumentFile = Files.writeString(work.resolve("args"), "--vector\n" + Arrays.toString(new float[DIM]) + "\n");
        assertEquals(2, fails("'@" + argumentFile + "'", null, "search", "--db", db.toString(), "@" + argumentFile).exit());
        // An unknown command after help is named as such, not as options before a command.
        assertEquals(2, fails("Unknown subcommand 'frob'", null, "help", "frob").exit());
        // An empty --db (an unset shell variable) is refused, not taken for the current directory.
        assertEquals(2, fails("--db': an empty path names no directory", null, "init", "--db", "", "--dim", "2").exit());
        // From an audit: every refusal of init names its flag.
        fails("--dim: dimension must be 1 to 65536, got 0", null, "init", "--db", work.resolve("dim0").toString(),
                "--dim", "0");
        fails("--durability: BATCH durability needs an interval", null, "init", "--db",
                work.resolve("batch0").toString(), "--durability", "batch:0");
        fails("is a directory, not a file of JSON lines", null, "import", "--db", db.toString(), work.toString());
        fails("<stdin>:1: timestamp: the value is too long to read (Number value length (2000)", "{\"timestamp\":" + "9".repeat(2000) + "}",
                "import", "--db", db.toString(), "-");
        // A refused bench leaves no work directory behind.
        Path benchTemp = Files.createDirectories(work.resolve("bench-tmp"));
        List<String> bench = commandLine("bench", "--intents", "5");
        bench.add(1, "-Djava.io.tmpdir=" + benchTemp);
        Process refusedBench = new ProcessBuilder(bench).redirectErrorStream(true).start();
        String benchOutput = new String(refusedBench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(refusedBench.waitFor(300, TimeUnit.SECONDS));
        assertEquals(1, refusedBench.exitValue(), benchOutput);
        assertTrue(benchOutput.contains("at least 100 intents"), benchOutput);
        try (var left = Files.list(benchTemp)) {
            assertEquals(List.of(), left.toList(), "bench left its temporary directory");
        }
        fails("--durability applies to the kill mode", null, "crashtest", "--db", work.resolve("no-crash").toString(),
                "--mode", "power", "--durability", "none");
        fails("durability \"sometimes\" is not sync, none or batch:<millis>", null, "crashtest", "--db",
                work.resolve("no-crash").toString(), "--durability", "sometimes");
        fails("vector: has 2 values but the database's dimension is 8", null, "search", "--db", db.toString(),
                "--vector", "[1, 2]");
        // A byte order mark on the first line is ignored; bytes that are not UTF-8 are refused, not replaced.
        String bomLine = JsonLinesWriter.toLine(new RandomIntents(7, DIM).next());
        byte[] second = (JsonLinesWriter.toLine(new RandomIntents(8, DIM).next()) + "\n").getBytes(StandardCharsets.UTF_8);
        int command = new String(second, StandardCharsets.UTF_8).indexOf("\"command\":\"") + "\"command\":\"".length();
        java.io.ByteArrayOutputStream badUtf8 = new java.io.ByteArrayOutputStream();
        badUtf8.writeBytes(("\uFEFF" + bomLine + "\n").getBytes(StandardCharsets.UTF_8));
        badUtf8.write(second, 0, command);
        badUtf8.writeBytes(new byte[] {(byte) 0xFF, (byte) 0xFE});
        badUtf8.write(second, command, second.length - command);
        Files.write(work.resolve("bad-utf8.jsonl"), badUtf8.toByteArray());
        fails("bad-utf8.jsonl:2: not valid UTF-8", null, "import", "--db", db.toString(),
                work.resolve("bad-utf8.jsonl").toString());

        String after = ok(null, "export", "--db", db.toString()).out;
        // The lines before a bad one are kept.
        List<String> added = new ArrayList<>(after.lines().toList());
        added.removeAll(before.lines().toList());
        assertEquals(java.util.Set.of(JsonLinesWriter.toLine(new RandomIntents(1, DIM).next()), bomLine),
                java.util.Set.copyOf(added));

        Path junk = work.resolve("junk.tbf");
        byte[] bytes = new byte[5000];
        new Random(3).nextBytes(bytes);
        Files.write(junk, bytes);
        fails("bad magic", null, "inspect", junk.toString());

        // OPTIONS edited to a value an open refuses: verify says so (exit 1), the open names the line.
        Path badOptions = work.resolve("bad-options");
        ok(null, "init", "--db", badOptions.toString(), "--dim", Integer.toString(DIM));
        Path optionsFile = badOptions.resolve("OPTIONS");
        Files.writeString(optionsFile, Files.readString(optionsFile).replaceFirst("memtable_bytes=\\d+", "memtable_bytes=0"));
        Run verify = tala(null, "verify", "--db", badOptions.toString());
        assertEquals(1, verify.exit(), verify.out);
        assertTrue(verify.out.contains("memtable_bytes=0: memtable size must be 4096 to"), verify.out);
        fails("memtable_bytes=0: memtable size must be 4096 to", null, "stats", "--db", badOptions.toString());

        // A segment with a damaged footer is still listed, flagged, and the exit code says so.
        Path damaged = work.resolve("damaged-footer");
        copyWithOneSegmentByteFlipped(damaged, length -> length - 60, 0x7F);
        Run listing = tala(null, "segments", "--db", damaged.toString());
        assertEquals(1, listing.exit(), listing.out + listing.err);
        assertTrue(listing.out.contains("UNREADABLE") && listing.out.contains("footer checksum mismatch"), listing.out);
        JsonNode rows = JSON.readTree(tala(null, "segments", "--db", damaged.toString(), "--json").out);
        List<String> readableKeys = null;
        JsonNode unreadable = null;
        for (JsonNode row : rows) {
            if (row.has("error")) {
                unreadable = row;
            } else {
                readableKeys = fieldNames(row.fieldNames());
            }
        }
        List<String> keys = fieldNames(unreadable.fieldNames());
        assertEquals(readableKeys, keys.subList(0, keys.size() - 1), "an unreadable row has a readable row's keys");
        assertTrue(unreadable.get("dtype").isNull() && unreadable.get("edges").isNull(), unreadable.toString());

        Path missing = work.resolve("no-such-db");
        fails("no database at", null, "stats", "--db", missing.toString());
        assertFalse(Files.exists(missing), "a missing database is not created by accident");

        // From an audit: the commands that read the files without opening the database said
        // only "no database at DIR"; scan took a reversed range for an empty one; inspect called
        // a device "no such file".
        Path noManifest = work.resolve("no-manifest");
        FileTrees.copy(db, noManifest);
        Files.delete(noManifest.resolve("MANIFEST"));
        // Beside segments a missing MANIFEST was lost, as every open and verify judge it.
        fails(noManifest.resolve("MANIFEST") + " at offset 0: MANIFEST is missing but segments exist", null,
                "segments", "--db", noManifest.toString());
        Path noOptions = work.resolve("no-options");
        FileTrees.copy(db, noOptions);
        Files.delete(noOptions.resolve("OPTIONS"));
        fails("no database at " + noOptions + " (no OPTIONS file)", null, "verify", "--db", noOptions.toString());
        fails("(the directory does not exist)", null, "segments", "--db", missing.toString());
        fails("time range [10, 5) ends before it starts", null, "scan", "--db", db.toString(), "--from", "10", "--to", "5");
        fails("--limit must be at least 1, got 0", null, "scan", "--db", db.toString(), "--from", "0", "--to", "5",
                "--limit", "0");
        fails("/dev/null is not a regular file", null, "inspect", "/dev/null");
        fails("--status success,: an empty status in the list", null, "search", "--db", db.toString(),
                "--vector", "[1, 2, 3, 4, 5, 6, 7, 8]", "--status", "success,");
        Path fifoLock = work.resolve("fifo-lock");
        FileTrees.copy(db, fifoLock);
        Files.delete(fifoLock.resolve("LOCK"));
        if (new ProcessBuilder("mkfifo", fifoLock.resolve("LOCK").toString()).start().waitFor() == 0) {
            // Reading a FIFO waits for a writer: verify and stats hung here.
            fails(fifoLock.resolve("LOCK") + ": not a regular file but a pipe, socket or device", null,
                    "verify", "--db", fifoLock.toString());
            fails("not a regular file", null, "stats", "--db", fifoLock.toString());
            fails("not a regular file", null, "compact", "--db", fifoLock.toString());
            // From an audit: the same for the MANIFEST, OPTIONS and a segment, which hung more commands.
            Path segment;
            try (var files = Files.list(db.resolve("segments"))) {
                segment = db.relativize(files.filter(f -> f.toString().endsWith(".tbf")).findFirst().orElseThrow());
            }
            for (Path name : List.of(Path.of("MANIFEST"), Path.of("OPTIONS"), segment)) {
                Path copy = work.resolve("fifo-" + name.getFileName());
                FileTrees.copy(db, copy);
                Files.delete(copy.resolve(name));
                assertEquals(0, new ProcessBuilder("mkfifo", copy.resolve(name).toString()).start().waitFor());
                String expected = copy.resolve(name) + ": not a regular file but a pipe, socket or device";
                fails(expected, null, "stats", "--db", copy.toString());
                fails(expected, null, "compact", "--db", copy.toString());
                Run verifyFifo = tala(null, "verify", "--db", copy.toString());
                assertEquals(1, verifyFifo.exit(), verifyFifo.out + verifyFifo.err);
                assertTrue((verifyFifo.out + verifyFifo.err).contains(expected), verifyFifo.out + verifyFifo.err);
            }
        }
        // From an audit: a directory where the MANIFEST should be said "No such device".
        Path manifestDir = work.resolve("manifest-dir");
        FileTrees.copy(db, manifestDir);
        Files.delete(manifestDir.resolve("MANIFEST"));
        Files.createDirectory(manifestDir.resolve("MANIFEST"));
        fails(manifestDir.resolve("MANIFEST") + ": not a regular file but a directory", null, "segments", "--db",
                manifestDir.toString());
        fails(manifestDir.resolve("MANIFEST") + ": not a regular file but a directory", null, "compact", "--db",
                manifestDir.toString());

        // From an audit: a quoted value with a line break split the one-line error, and an
        // escape character reached the terminal.
        Intent sample = new RandomIntents(11, DIM).next();
        String sampleLine = JsonLinesWriter.toLine(sample);
        Files.writeString(work.resolve("newline.jsonl"), sampleLine.replace("\"status\":\"" + sample.status().label()
                + "\"", "\"status\":\"fail\\nure\\u001b[31m\"") + "\n");
        Run quoted = fails("newline.jsonl:1: status: unknown status \"fail\\nure\\u001b[31m\"", null, "import", "--db",
                db.toString(), work.resolve("newline.jsonl").toString());
        assertFalse(quoted.err.contains("\u001b"), quoted.err);
        fails("0198fb8c-5051-7d66\\nbe1d-5e1057fac2e4", null, "get", "--db", db.toString(), "0198fb8c-5051-7d66\nbe1d-5e1057fac2e4");

        // From an audit: search took negative and reversed ranges that scan refuses, and answered nothing.
        fails("cannot be negative", null, "search", "--db", db.toString(), "--vector", "[1, 2, 3, 4, 5, 6, 7, 8]",
                "--to", "-1");
        fails("time range [10, 5) ends before it starts", null, "search", "--db", db.toString(), "--vector",
                "[1, 2, 3, 4, 5, 6, 7, 8]", "--from", "10", "--to", "5");

        // From an audit: a duration past the nanosecond range overflowed (an internal error, or a
        // run that crashed nothing and passed).
        Path crashDir = work.resolve("crash-long");
        fails("--duration must be 1 to 31536000 seconds (a year), not 9223372037", null, "crashtest", "--db",
                crashDir.toString(), "--duration", "9223372037", "--mode", "power");
        assertFalse(Files.exists(crashDir), "a refused crashtest leaves nothing behind");

        // From an audit: demo after an intent stamped near the end of time said
        // "startNs must be >= 0, got -9223372036854551616".
        Path late = work.resolve("demo-late");
        ok(null, "init", "--db", late.toString());
        String lateLine = JsonLinesWriter.toLine(new RandomIntents(3, Options.DEFAULT_DIMENSION).next())
                .replaceFirst("\"timestamp\":\\d+", "\"timestamp\":9223372036854775806");
        ok(lateLine, "import", "--db", late.toString(), "-");
        fails("demo adds its intents after the newest one stored, at 9223372036854775806 ns", null, "demo", "--db",
                late.toString(), "--intents", "10");

        try (TalaDB held = TalaDB.open(db, Options.builder().createIfMissing(false).build())) {
            fails("database locked", null, "compact", "--db", db.toString());
            fails("pid " + ProcessHandle.current().pid(), null, "verify", "--db", db.toString());
            Run beside = ok(null, "stats", "--db", db.toString(), "--json");
            assertEquals(held.stats().intents(), JSON.readTree(beside.out).get("intents").asLong(), "read beside the writer");
        }
    }

    /**
     * The read commands open read-only: a torn WAL tail is read around, not cut, and nothing in
     * the directory changes; a writing command repairs it. A reader open in one process does not
     * keep the others from reading, verifying or writing.
     */
    @Test
    @Order(8)
    void readCommandsChangeNothingAndShareTheDatabase() throws Exception {
        Path copy = work.resolve("torn-tail");
        FileTrees.copy(db, copy);
        Intent extra = new RandomIntents(7, DIM).next();
        try (TalaDB writer = TalaDB.open(copy, Options.builder().createIfMissing(false).build())) {
            writer.put(extra);
        }
        Path wal;
        try (var files = Files.list(copy.resolve("wal"))) {
            wal = files.filter(p -> p.getFileName().toString().endsWith(".wal")).max(Path::compareTo).orElseThrow();
        }
        Files.write(wal, new byte[] {0x5A, 0x5A, 0x5A}, java.nio.file.StandardOpenOption.APPEND);
        byte[] torn = Files.readAllBytes(wal);
        List<String> files;
        try (var all = Files.walk(copy)) {
            files = all.map(Path::toString).sorted().toList();
        }

        Run get = ok(null, "get", "--db", copy.toString(), extra.id().toString(), "--json");
        assertEquals(JsonLinesWriter.toLine(extra), get.out.strip());
        assertTrue(get.err.contains("left as it is (read-only open)"), get.err);
        ok(null, "scan", "--db", copy.toString(), "--from", "0", "--to", Long.toString(Long.MAX_VALUE));
        ok(null, "stats", "--db", copy.toString());
        ok(null, "export", "--db", copy.toString());
        org.junit.jupiter.api.Assertions.assertArrayEquals(torn, Files.readAllBytes(wal), "the torn tail is left as it is");
        try (var all = Files.walk(copy)) {
            assertEquals(files, all.map(Path::toString).sorted().toList(), "no file created or removed");
        }

        try (TalaDB reader = TalaDB.openReadOnly(copy)) {
            ok(null, "get", "--db", copy.toString(), extra.id().toString());
            Run verify = tala(null, "verify", "--db", copy.toString());
            assertEquals(1, verify.exit(), verify.err);
            assertTrue(verify.out.contains(wal.getFileName().toString()), "verify ran beside the reader: " + verify.out);
            ok(null, "compact", "--db", copy.toString());
            assertTrue(!Files.exists(wal) || Files.readAllBytes(wal).length < torn.length, "a writing open repairs");
            assertEquals(java.util.Optional.of(extra), reader.get(extra.id()), "the reader keeps what it read");
        }
    }

    /**
     * A disk that fills under {@code import}: each event is one line (the engine's log, then the
     * command's error), with no stack trace, and what was imported before stays readable. The
     * same run printed about 120 lines of stack traces before.
     */
    @Test
    @Order(9)
    void aFullDiskIsReportedInOneLinePerEventWithoutStackTraces() throws Exception {
        int dim = 384;
        try (RealMount small = RealMount.tmpfs(work.resolve("full-disk"), 1024)) {
            Path full = small.dir.resolve("db");
            ok(null, "init", "--db", full.toString(), "--dim", Integer.toString(dim));
            RandomIntents gen = new RandomIntents(5, dim);
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                lines.add(JsonLinesWriter.toLine(gen.next()));
            }
            Path input = work.resolve("too-much.jsonl");
            Files.write(input, lines);
            Run imported = tala(null, "import", "--db", full.toString(), input.toString());
            assertEquals(1, imported.exit(), imported.out + imported.err);
            List<String> err = imported.errLines();
            for (String line : err) {
                assertTrue(line.startsWith("[WARN] ") || line.startsWith("[ERROR] ") || line.startsWith("tala import: "),
                        "one line per event, no stack trace: " + line + "\n" + imported.err);
            }
            assertTrue(err.getLast().startsWith("tala import: the write-ahead log could not write or force ")
                    && err.getLast().endsWith(": No space left on device (writing); the database is read-only until reopened"),
                    err.getLast());
            assertEquals(1, err.stream().filter(l -> l.startsWith("[ERROR] ")).count(), "the failure is logged once: " + err);

            List<String> kept = ok(null, "export", "--db", full.toString()).outLines();
            List<String> sortedInput = lines.stream().sorted().toList();
            assertFalse(kept.isEmpty(), "some intents were imported before the disk filled");
            for (String line : kept) {
                assertTrue(java.util.Collections.binarySearch(sortedInput, line) >= 0, "an imported line comes back whole: " + line);
            }
        }
    }
}
