package dev.tala.tests.crash;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-only opens beside a writer in another process. A child JVM ({@link ReadBesideWriterChild})
 * writes without pause (puts, re-puts, deletes, outcomes, batches; SYNC and NONE rounds; a 64 KiB
 * memtable so that it flushes every few hundred writes; background compaction; WAL recycling and
 * frequent MANIFEST rewrites in some rounds) and is SIGKILLed every few seconds (sometimes during
 * its recovery) and restarted. Meanwhile this JVM opens the database read-only over and over,
 * keeps some readers open for seconds, and (when asked for: -Dtala.readBeside.cli=true, or the
 * long run) a third thread runs {@code bin/tala get/scan/stats}.
 *
 * <p>Each read-only open must succeed or fail only with "changed while it was read"; what it
 * serves must be exactly the state after some sequence S: every write the child acknowledged
 * before the open started is in it (S covers it), every acknowledged write with a sequence above
 * S is not, each writer's writes apply as a prefix, a batch applies whole; nothing else exists.
 * A reader kept open must serve the very same state later, after the writer has flushed,
 * compacted and deleted files. Default 20 s; -Dtala.readBeside.seconds=N or -Dtala.long=true
 * (10 minutes) for longer.
 */
class ReadBesideWriterTest {
    private static final int THREADS = 3;
    /** Also run bin/tala get, scan and stats beside the writer (-Dtala.readBeside.cli=true, or the long run). */
    private static final boolean WITH_CLI = Boolean.getBoolean("tala.readBeside.cli") || Boolean.getBoolean("tala.long");
    private static final int MAX_OPEN_READERS = 3;
    /** How long a writer lives before its SIGKILL: this plus up to the spread, in milliseconds. */
    private static final int ROUND_MIN_MILLIS = Integer.getInteger("tala.readBeside.roundMillis", 1500);
    private static final int ROUND_SPREAD_MILLIS = Integer.getInteger("tala.readBeside.roundSpreadMillis", 4000);
    private static final Pattern LAST_SEQUENCE = Pattern.compile("\"last_?[sS]equence\"\\s*:\\s*(\\d+)");

    @TempDir
    Path work;

    @Test
    void readOnlyOpensBesideAWriterThatIsKilledAndRestarted() throws Exception {
        long seconds = Long.getLong("tala.readBeside.seconds", Boolean.getBoolean("tala.long") ? 600 : 20);
        Run run = new Run(work, Duration.ofSeconds(seconds), Long.getLong("tala.readBeside.seed", 20261126L));
        run.go();
        System.out.println(run.summary());
        assertTrue(run.failures.isEmpty(), run.summary() + "\n" + String.join("\n", run.failures));
        assertTrue(run.opens > 20, "read-only opens: " + run.opens);
        assertTrue(run.kills >= 2, "kills: " + run.kills);
        assertTrue(run.checkedIds > 1000, "ids checked: " + run.checkedIds);
    }

    // ---- the model of what each writer thread did ----------------------------------------------

    /** One thread of one child round: its writes, rebuilt from the seed, and what the log said. */
    static final class ThreadModel {
        final int round;
        final int thread;
        final Workload workload;
        final List<Workload.Write> writes = new ArrayList<>();
        /** The sequence of acknowledged write i is seqs.get(i): acks come in order per thread. */
        final List<Long> seqs = new ArrayList<>();
        int begun = -1;
        int acked = -1;
        /** Set once the child is dead (nanoTime); its last write may have been in flight. */
        long deadAt = Long.MAX_VALUE;
        /** For a dead thread: whether its in-flight write survived, once a reader has seen it. */
        Boolean inFlightApplied;
        /** Scratch for one check: how many of its writes the reader shows. */
        int applied;

        ThreadModel(int round, int thread, long roundSeed) {
            this.round = round;
            this.thread = thread;
            this.workload = new Workload(KillChild.threadSeed(roundSeed, thread),
                    ReadBesideWriterChild.DIMENSION);
        }

        @Override
        public String toString() {
            return "round " + round + " thread " + thread;
        }
    }

    /** Every state an id went through: after write indices[k] of its owner it was states[k]. */
    static final class IdHistory {
        final ThreadModel owner;
        final List<Integer> indices = new ArrayList<>();
        final List<Optional<Intent>> states = new ArrayList<>();

        IdHistory(ThreadModel owner) {
            this.owner = owner;
        }

        /** The state once the owner's first {@code applied} writes are applied. */
        Optional<Intent> stateAt(int applied) {
            for (int k = indices.size() - 1; k >= 0; k--) {
                if (indices.get(k) < applied) {
                    return states.get(k);
                }
            }
            return Optional.empty();
        }
    }

    /** The child's log, read as it grows; only whole lines count. */
    static final class LogTail {
        final Path file;
        final int round;
        final long roundSeed;
        long offset;
        final StringBuilder partial = new StringBuilder();

        LogTail(Path file, int round, long roundSeed) {
            this.file = file;
            this.round = round;
            this.roundSeed = roundSeed;
        }
    }

    // ---- the run -------------------------------------------------------------------------------

    static final class Run {
        final Path work;
        final Path db;
        final Duration duration;
        final long seed;
        final Random random;
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());

        // The model; guarded by `this`.
        final Map<String, ThreadModel> threads = new HashMap<>();
        final Map<IntentId, IdHistory> ids = new HashMap<>();
        final List<LogTail> logs = new ArrayList<>();

        volatile boolean stop;
        /** What the writer is doing: none, recovering, writing, killed (with its round). */
        volatile String writerPhase = "none";
        volatile Process child;
        volatile int kills;
        volatile int killsInRecovery;
        volatile int rounds;
        int opens;
        int opensBesideWriter;
        int opensWithoutWriter;
        int exhausted;
        int manifestChangedDuringOpen;
        int keptOpen;
        int stabilityChecks;
        long checkedIds;
        long maxOpenMillis;
        final AtomicLong cliRuns = new AtomicLong();
        final AtomicLong cliChanged = new AtomicLong();
        final Map<String, Integer> cliByCommand = Collections.synchronizedMap(new HashMap<>());

        Run(Path work, Duration duration, long seed) {
            this.work = work;
            this.db = work.resolve("db");
            this.duration = duration;
            this.seed = seed;
            this.random = new Random(seed);
        }

        String summary() {
            return String.format("read-beside: %d s, %d child rounds, %d kills (%d during recovery), %d read-only opens"
                            + " (%d beside a live writer, %d with none), %d gave up 'changed while it was read',"
                            + " %d opens during which the MANIFEST changed (a retry was likely), longest open %d ms,"
                            + " %d readers kept open and re-checked (%d checks), %,d id states checked,"
                            + " %d CLI runs %s (%d 'changed'), %d failures",
                    duration.toSeconds(), rounds, kills, killsInRecovery, opens, opensBesideWriter, opensWithoutWriter,
                    exhausted, manifestChangedDuringOpen, maxOpenMillis, keptOpen, stabilityChecks, checkedIds,
                    cliRuns.get(), cliByCommand, cliChanged.get(), failures.size());
        }

        void fail(String message) {
            if (failures.size() < 30) {
                failures.add(message);
            }
            System.out.println("FAILURE: " + message);
        }

        void go() throws Exception {
            TalaDB.open(db, ReadBesideWriterChild.options(Durability.sync(), 0, 4L << 20)).close();
            Thread supervisor = new Thread(this::supervise, "beside-supervisor");
            // bin/tala builds the CLI with Maven when its jar is missing or stale, which must not
            // happen inside the reactor's own build: the CLI runs only when asked for.
            Thread cli = new Thread(WITH_CLI ? this::cliLoop : () -> { }, "beside-cli");
            supervisor.start();
            cli.start();
            try {
                readLoop();
            } finally {
                stop = true;
                supervisor.join(120_000);
                cli.join(120_000);
                Process p = child;
                if (p != null) {
                    p.destroyForcibly();
                    p.waitFor(60, TimeUnit.SECONDS);
                }
            }
            scanChildOutputs();
            if (failures.isEmpty()) {
                finalCheck();
            }
        }

        // ---- the writer's life: start, kill, restart ------------------------------------------

        void supervise() {
            try {
                for (int round = 0; !stop; round++) {
                    rounds = round + 1;
                    long roundSeed = seed * 7919 + round;
                    Durability durability = round % 2 == 0 ? Durability.sync() : Durability.none();
                    int recycle = round % 3;
                    long rewrite = round % 2 == 1 ? 16 * 1024 : 4L << 20;
                    Path log = work.resolve("log-" + round);
                    Path out = work.resolve("child-" + round + ".out");
                    synchronized (this) {
                        logs.add(new LogTail(log, round, roundSeed));
                    }
                    Process p = startChild(log, out, roundSeed, durability, recycle, rewrite);
                    child = p;
                    writerPhase = "starting/recovering (round " + round + ")";
                    boolean duringRecovery = random.nextInt(5) == 0;
                    if (!awaitLine(p, out, duringRecovery ? "opening" : "ready")) {
                        fail("round " + round + ": the child did not open the database: " + tail(out));
                        child = null;
                        stop = true;
                        return;
                    }
                    if (!duringRecovery) {
                        writerPhase = "writing (round " + round + ")";
                    }
                    long sleep = duringRecovery ? random.nextInt(40) : ROUND_MIN_MILLIS + random.nextInt(ROUND_SPREAD_MILLIS);
                    long until = System.currentTimeMillis() + sleep;
                    while (!stop && System.currentTimeMillis() < until && p.isAlive()) {
                        Thread.sleep(5);
                    }
                    if (!p.isAlive()) {
                        fail("round " + round + ": the child exited by itself (" + p.exitValue() + "): " + tail(out));
                    }
                    p.destroyForcibly();
                    if (!p.waitFor(60, TimeUnit.SECONDS)) {
                        fail("round " + round + ": the child did not die within 60 s of SIGKILL");
                        stop = true;
                        return;
                    }
                    child = null;
                    writerPhase = "killed (round " + round + ")";
                    kills++;
                    if (duringRecovery) {
                        killsInRecovery++;
                    }
                    synchronized (this) {
                        tailLogs();
                        long now = System.nanoTime();
                        for (ThreadModel tm : threads.values()) {
                            if (tm.round == round) {
                                tm.deadAt = now;
                            }
                        }
                    }
                    // Sometimes no writer for a while: readers then take the shared lock.
                    Thread.sleep(random.nextInt(4) == 0 ? 300 + random.nextInt(700) : random.nextInt(50));
                }
            } catch (Throwable e) {
                fail("supervisor: " + stack(e));
                stop = true;
            }
        }

        Process startChild(Path log, Path out, long roundSeed, Durability durability, int recycle, long rewrite)
                throws IOException {
            List<String> cmd = ChildJvm.command("-Xmx512m", List.of("-XX:ErrorFile=" + work.resolve("hs_err_child_%p.log")),
                    ReadBesideWriterChild.class, db.toString(), log.toString(), Long.toString(roundSeed),
                    Integer.toString(THREADS), durability.toString(), Integer.toString(recycle), Long.toString(rewrite));
            return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        }

        boolean awaitLine(Process p, Path out, String expected) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline) {
                if (Files.exists(out) && Files.readString(out).lines().anyMatch(expected::equals)) {
                    return true;
                }
                if (!p.isAlive()) {
                    return Files.readString(out).lines().anyMatch(expected::equals);
                }
                Thread.sleep(2);
            }
            p.destroyForcibly();
            return false;
        }

        void scanChildOutputs() throws IOException {
            try (var files = Files.list(work)) {
                for (Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    if (name.startsWith("hs_err")) {
                        fail("a JVM crashed: " + f + "\n" + Files.readString(f).lines().limit(20).toList());
                    } else if (name.startsWith("child-") && name.endsWith(".out")) {
                        String text = Files.readString(f);
                        if (text.contains("WRITER-FAILED") || text.contains("Exception") || text.contains("Error")) {
                            fail(name + ": " + text.lines().filter(l -> !l.startsWith("WARNING")).limit(15).toList());
                        }
                    }
                }
            }
        }

        static String tail(Path out) {
            try {
                List<String> lines = Files.readAllLines(out);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
            } catch (IOException e) {
                return "(no output: " + e + ")";
            }
        }

        // ---- the model, fed by the logs -------------------------------------------------------

        /** Reads what the logs gained; caller holds the monitor. */
        void tailLogs() throws IOException {
            for (LogTail t : logs) {
                if (!Files.exists(t.file)) {
                    continue;
                }
                try (FileChannel ch = FileChannel.open(t.file, StandardOpenOption.READ)) {
                    long size = ch.size();
                    if (size <= t.offset) {
                        continue;
                    }
                    ByteBuffer buf = ByteBuffer.allocate((int) (size - t.offset));
                    while (buf.hasRemaining() && ch.read(buf, t.offset + buf.position()) > 0) {
                        // reading
                    }
                    t.offset += buf.position();
                    t.partial.append(new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII));
                }
                int end;
                while ((end = t.partial.indexOf("\n")) >= 0) {
                    String line = t.partial.substring(0, end);
                    t.partial.delete(0, end + 1);
                    apply(t, line);
                }
            }
        }

        void apply(LogTail t, String line) {
            String[] f = line.split(" ");
            int thread = Integer.parseInt(f[1]);
            int index = Integer.parseInt(f[2]);
            ThreadModel tm = threads.computeIfAbsent(t.round + "/" + thread,
                    k -> new ThreadModel(t.round, thread, t.roundSeed));
            if (f[0].equals("B")) {
                if (index != tm.begun + 1) {
                    fail("log of " + tm + ": write " + index + " begun after " + tm.begun);
                }
                tm.begun = index;
                while (tm.writes.size() <= index) {
                    Workload.Write w = tm.workload.next();
                    tm.writes.add(w);
                    w.effects().forEach((id, state) -> {
                        IdHistory h = ids.computeIfAbsent(id, k -> new IdHistory(tm));
                        if (h.owner != tm) {
                            fail("id " + id + " written by " + h.owner + " and " + tm);
                        }
                        h.indices.add(w.index());
                        h.states.add(state);
                    });
                }
            } else {
                if (index != tm.acked + 1 || index > tm.begun) {
                    fail("log of " + tm + ": write " + index + " acknowledged after " + tm.acked);
                }
                long seq = Long.parseLong(f[3]);
                if (!tm.seqs.isEmpty() && seq <= tm.seqs.getLast()) {
                    fail("log of " + tm + ": sequence " + seq + " after " + tm.seqs.getLast());
                }
                tm.seqs.add(seq);
                tm.acked = index;
            }
        }

        /** Per thread, how many of its writes were acknowledged (logged) by now. */
        synchronized Map<ThreadModel, Integer> acknowledgedNow() throws IOException {
            tailLogs();
            Map<ThreadModel, Integer> m = new IdentityHashMap<>();
            threads.values().forEach(tm -> m.put(tm, tm.acked + 1));
            return m;
        }

        synchronized long maxAcknowledgedSequence() throws IOException {
            tailLogs();
            long max = 0;
            for (ThreadModel tm : threads.values()) {
                if (!tm.seqs.isEmpty()) {
                    max = Math.max(max, tm.seqs.getLast());
                }
            }
            return max;
        }

        // ---- the readers ----------------------------------------------------------------------

        /** A reader kept open: what it served at first, to compare later. */
        record Kept(TalaDB reader, long sequence, Map<IntentId, Intent> dump, List<Intent> scan, long closeAt,
                    String what) {
        }

        void readLoop() throws Exception {
            long deadline = System.nanoTime() + duration.toNanos();
            // On a slow or busy machine it reads on until it has seen enough to judge, up to 4x as long.
            long cap = System.nanoTime() + 4 * duration.toNanos();
            List<Kept> kept = new ArrayList<>();
            try {
                while (!stop && failures.isEmpty() && System.nanoTime() < cap
                        && (System.nanoTime() < deadline || kills < 2 || opens <= 20 || checkedIds <= 1000)) {
                    for (var it = kept.iterator(); it.hasNext(); ) {
                        Kept k = it.next();
                        if (System.nanoTime() >= k.closeAt()) {
                            recheck(k);
                            k.reader().close();
                            it.remove();
                        }
                    }
                    oneOpen(kept);
                    Thread.sleep(random.nextInt(20));
                }
            } finally {
                for (Kept k : kept) {
                    if (failures.isEmpty()) {
                        recheck(k);
                    }
                    k.reader().close();
                }
            }
        }

        void oneOpen(List<Kept> kept) throws Exception {
            Map<ThreadModel, Integer> ackedBefore = acknowledgedNow();
            boolean writerAlive = child != null && child.isAlive();
            String phaseBefore = writerPhase;
            long stampBefore = manifestStamp();
            long start = System.nanoTime();
            TalaDB reader;
            try {
                reader = TalaDB.openReadOnly(db);
            } catch (Throwable e) {
                if (e.getClass() == dev.tala.core.error.TalaException.class
                        && String.valueOf(e.getMessage()).contains("changed while it was read")) {
                    exhausted++;
                    return;
                }
                fail("read-only open " + (opens + 1) + " (writer " + phaseBefore + " -> " + writerPhase
                        + ") threw: " + stack(e));
                return;
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            maxOpenMillis = Math.max(maxOpenMillis, millis);
            opens++;
            if (writerAlive) {
                opensBesideWriter++;
            } else {
                opensWithoutWriter++;
            }
            if (manifestStamp() != stampBefore) {
                manifestChangedDuringOpen++;
            }
            String what = "read-only open " + opens + " (" + (writerAlive ? "beside a writer" : "no writer seen") + ")";
            boolean keep = false;
            try {
                Map<IntentId, Intent> dump = new HashMap<>();
                long sequence;
                try (Snapshot s = reader.snapshot()) {
                    sequence = s.sequence();
                    s.forEachIntent(i -> {
                        if (dump.put(i.id(), i) != null) {
                            fail(what + ": id " + i.id() + " listed twice");
                        }
                    });
                }
                checkAgainstModel(what, sequence, dump, ackedBefore, start);
                List<Intent> scan = reader.scan(0, Long.MAX_VALUE, 200);
                samplePointReads(what, reader, dump);
                if (kept.size() < MAX_OPEN_READERS && random.nextInt(3) == 0) {
                    long closeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500 + random.nextInt(4000));
                    kept.add(new Kept(reader, sequence, dump, scan, closeAt, what));
                    keptOpen++;
                    keep = true;
                }
            } catch (Throwable e) {
                fail(what + ": reading threw: " + stack(e));
            } finally {
                if (!keep) {
                    reader.close();
                }
            }
        }

        /** A reader kept open still serves exactly what it served at first. */
        void recheck(Kept k) {
            stabilityChecks++;
            String what = k.what() + ", re-read later";
            try {
                Map<IntentId, Intent> now = new HashMap<>();
                long sequence;
                try (Snapshot s = k.reader().snapshot()) {
                    sequence = s.sequence();
                    s.forEachIntent(i -> now.put(i.id(), i));
                }
                if (sequence != k.sequence()) {
                    fail(what + ": sequence " + k.sequence() + " became " + sequence);
                }
                if (!now.equals(k.dump())) {
                    int shown = 0;
                    for (IntentId id : union(now.keySet(), k.dump().keySet())) {
                        if (!Optional.ofNullable(now.get(id)).equals(Optional.ofNullable(k.dump().get(id))) && shown++ < 5) {
                            fail(what + ": " + id + " was " + k.dump().get(id) + ", now " + now.get(id));
                        }
                    }
                }
                if (!k.reader().scan(0, Long.MAX_VALUE, 200).equals(k.scan())) {
                    fail(what + ": the time scan changed");
                }
                samplePointReads(what, k.reader(), k.dump());
            } catch (Throwable e) {
                fail(what + ": threw: " + stack(e));
            }
        }

        static List<IntentId> union(java.util.Set<IntentId> a, java.util.Set<IntentId> b) {
            java.util.Set<IntentId> all = new java.util.HashSet<>(a);
            all.addAll(b);
            return new ArrayList<>(all);
        }

        /** Point reads (bloom, index, memtables) agree with the full listing. */
        void samplePointReads(String what, TalaDB reader, Map<IntentId, Intent> dump) {
            List<IntentId> sample = new ArrayList<>();
            synchronized (this) {
                List<IntentId> all = new ArrayList<>(ids.keySet());
                for (int i = 0; i < 300 && !all.isEmpty(); i++) {
                    sample.add(all.get(random.nextInt(all.size())));
                }
            }
            for (IntentId id : sample) {
                Optional<Intent> got = reader.get(id);
                if (!got.equals(Optional.ofNullable(dump.get(id)))) {
                    fail(what + ": get(" + id + ") = " + got + " but the listing has " + dump.get(id));
                }
            }
        }

        /**
         * The reader must show exactly the state after every write with sequence <= S: writes
         * acknowledged before its open started among them, each thread's writes as a prefix, the
         * one write in flight per thread either whole or not at all.
         */
        synchronized void checkAgainstModel(String what, long s, Map<IntentId, Intent> dump,
                                            Map<ThreadModel, Integer> ackedBefore, long openStart) throws IOException {
            tailLogs();
            for (ThreadModel tm : threads.values()) {
                int j = 0;
                while (j <= tm.acked && tm.seqs.get(j) <= s) {
                    j++;
                }
                int mustHave = ackedBefore.getOrDefault(tm, 0);
                if (j < mustHave) {
                    fail(what + ": LOST " + tm + " write " + j + " (sequence " + tm.seqs.get(j)
                            + ") was acknowledged before the open started, but the reader's sequence is " + s);
                }
                if (j == tm.acked + 1 && tm.begun == tm.acked + 1) {
                    boolean dead = tm.deadAt < openStart;
                    if (tm.deadAt != Long.MAX_VALUE && tm.inFlightApplied != null) {
                        j += tm.inFlightApplied ? 1 : 0;
                    } else {
                        Workload.Write w = tm.writes.get(j);
                        boolean matchesAfter = true;
                        boolean matchesBefore = true;
                        for (var e : w.effects().entrySet()) {
                            Optional<Intent> actual = Optional.ofNullable(dump.get(e.getKey()));
                            matchesAfter &= actual.equals(e.getValue());
                            matchesBefore &= actual.equals(ids.get(e.getKey()).stateAt(j));
                        }
                        if (matchesAfter && !matchesBefore) {
                            j++;
                        } else if (!matchesAfter && !matchesBefore) {
                            fail(what + ": " + tm + " write " + j + " in flight is neither applied nor absent"
                                    + " (a torn batch?) " + w.effects());
                        }
                        if (dead && matchesAfter != matchesBefore) {
                            tm.inFlightApplied = matchesAfter;
                        }
                    }
                }
                tm.applied = j;
            }
            int shown = 0;
            for (var e : ids.entrySet()) {
                IdHistory h = e.getValue();
                Optional<Intent> expected = h.stateAt(h.owner.applied);
                Optional<Intent> actual = Optional.ofNullable(dump.get(e.getKey()));
                checkedIds++;
                if (!expected.equals(actual) && shown++ < 5) {
                    fail(what + " (sequence " + s + "): " + e.getKey() + " of " + h.owner + " (" + h.owner.applied
                            + " of its writes applied, acked " + (h.owner.acked + 1) + ", begun " + (h.owner.begun + 1)
                            + ") expected " + expected.map(Intent::toString).orElse("absent") + " but found "
                            + actual.map(Intent::toString).orElse("absent"));
                }
            }
            for (IntentId id : dump.keySet()) {
                if (!ids.containsKey(id) && shown++ < 5) {
                    fail(what + ": " + id + " was never written");
                }
            }
        }

        /** The MANIFEST's length and checksum folded into one long; -1 when unreadable. */
        long manifestStamp() {
            try {
                byte[] bytes = Files.readAllBytes(new DatabaseLayout(db).manifestFile());
                CRC32 crc = new CRC32();
                crc.update(bytes);
                return ((long) bytes.length << 32) ^ crc.getValue();
            } catch (NoSuchFileException e) {
                return -1;
            } catch (IOException e) {
                return -2;
            }
        }

        // ---- bin/tala beside the writer -------------------------------------------------------

        void cliLoop() {
            Path repo = Path.of(System.getProperty("tala.repo", ".."));
            Path tala = repo.resolve("bin/tala");
            if (!Files.isExecutable(tala)) {
                fail("no bin/tala at " + tala);
                return;
            }
            Random r = new Random(seed + 1);
            try {
                while (!stop) {
                    int kind = (int) (cliRuns.get() % 3);
                    List<String> cmd = new ArrayList<>(List.of(tala.toString()));
                    IntentId id = null;
                    int idAckedIndex = -1;
                    IdHistory history = null;
                    long minSequence = maxAcknowledgedSequence();
                    String phaseBefore = writerPhase;
                    String name;
                    switch (kind) {
                        case 0 -> {
                            name = "get";
                            synchronized (this) {
                                List<Map.Entry<IntentId, IdHistory>> present = new ArrayList<>();
                                for (var e : ids.entrySet()) {
                                    if (e.getValue().stateAt(e.getValue().owner.acked + 1).isPresent()) {
                                        present.add(e);
                                        if (present.size() > 5000) {
                                            break;
                                        }
                                    }
                                }
                                if (present.isEmpty()) {
                                    Thread.sleep(200);
                                    continue;
                                }
                                var e = present.get(r.nextInt(present.size()));
                                id = e.getKey();
                                history = e.getValue();
                                idAckedIndex = history.owner.acked;
                            }
                            cmd.addAll(List.of("get", "--db", db.toString(), "--json", id.toString()));
                        }
                        case 1 -> {
                            name = "scan";
                            cmd.addAll(List.of("scan", "--db", db.toString(), "--json", "--from", "0", "--to",
                                    Long.toString(Long.MAX_VALUE), "--limit", "50"));
                        }
                        default -> {
                            name = "stats";
                            cmd.addAll(List.of("stats", "--db", db.toString(), "--json"));
                        }
                    }
                    Path outFile = work.resolve("cli.out");
                    Path errFile = work.resolve("cli.err");
                    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(outFile.toFile())
                            .redirectError(errFile.toFile());
                    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
                    Process p = pb.start();
                    if (!p.waitFor(120, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                        fail("bin/tala " + name + " did not finish in 120 s");
                        continue;
                    }
                    cliRuns.incrementAndGet();
                    cliByCommand.merge(name, 1, Integer::sum);
                    String out = Files.readString(outFile);
                    // bin/tala says so when it builds the CLI first (its jar missing or older than
                    // the sources, as in a fresh clone whose reactor has not built the cli module yet).
                    String err = String.join("\n", Files.readString(errFile).lines()
                            .filter(l -> !l.startsWith("WARNING: Using incubator modules")
                                    && !l.startsWith("tala: building the CLI")).toList());
                    int exit = p.exitValue();
                    String shown = "bin/tala " + name + " (writer " + phaseBefore + " -> " + writerPhase + ") exit "
                            + exit + "\nstdout: "
                            + out.substring(0, Math.min(500, out.length())) + "\nstderr: " + err;
                    if (err.contains("changed while it was read")) {
                        cliChanged.incrementAndGet();
                        continue;
                    }
                    // A reader with no writer beside it (the child just killed) reports the crash's
                    // leftovers as warnings; anything else on stderr is a failure.
                    boolean oddStderr = err.lines().anyMatch(l -> !l.startsWith("[WARN] recovery")
                            && !l.startsWith("[INFO]") && !l.startsWith(" "));
                    if (exit != 0 || oddStderr) {
                        if (id != null && exit != 0 && err.contains("no intent") && deletedAfter(history, idAckedIndex)) {
                            continue;
                        }
                        fail(shown);
                        continue;
                    }
                    if (id != null && !out.contains(id.toString())) {
                        fail(shown + "\n(expected " + id + ")");
                    }
                    if (name.equals("stats")) {
                        Matcher m = LAST_SEQUENCE.matcher(out);
                        if (!m.find()) {
                            fail(shown + "\n(no last sequence in it)");
                        } else if (Long.parseLong(m.group(1)) < minSequence) {
                            fail(shown + "\n(LOST: sequence " + minSequence + " was acknowledged before it started)");
                        }
                    }
                    Thread.sleep(200 + r.nextInt(800));
                }
            } catch (Throwable e) {
                fail("cli loop: " + stack(e));
            }
        }

        synchronized boolean deletedAfter(IdHistory h, int ackedIndex) {
            for (int k = 0; k < h.indices.size(); k++) {
                if (h.indices.get(k) > ackedIndex && h.states.get(k).isEmpty()) {
                    return true;
                }
            }
            return false;
        }

        // ---- at the end -----------------------------------------------------------------------

        void finalCheck() throws Exception {
            Map<ThreadModel, Integer> acked = acknowledgedNow();
            try (TalaDB reader = TalaDB.openReadOnly(db)) {
                Map<IntentId, Intent> dump = new HashMap<>();
                long sequence;
                try (Snapshot s = reader.snapshot()) {
                    sequence = s.sequence();
                    s.forEachIntent(i -> dump.put(i.id(), i));
                }
                synchronized (this) {
                    long now = System.nanoTime();
                    threads.values().forEach(tm -> tm.deadAt = Math.min(tm.deadAt, now - 1));
                }
                checkAgainstModel("final read-only open", sequence, dump, acked, System.nanoTime());
            }
            try (TalaDB writer = TalaDB.open(db, ReadBesideWriterChild.options(Durability.sync(), 0, 4L << 20)
                    .toBuilder().createIfMissing(false).build())) {
                writer.flush();
            }
            VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(db));
            for (VerifyReport.Problem p : verify.problems()) {
                fail("verify: " + p);
            }
        }

        static String stack(Throwable e) {
            StringWriter w = new StringWriter();
            e.printStackTrace(new PrintWriter(w));
            return String.join("\n", w.toString().lines().limit(25).toList());
        }
    }
}
