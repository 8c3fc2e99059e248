package dev.tala.tests.corruption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.recovery.DatabaseVerifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Corruption fuzzing at the database level: random bit flips and truncations of segments, the
 * newest and an older WAL file, and the MANIFEST are reported by open or verify with file and
 * offset; a read never returns a wrong answer; nothing throws anything but a TalaException
 * (see {@link CaseRunner} for exactly what is checked).
 *
 * <p>Each case damages a fresh copy of a base database ({@link BaseDatabases}). The default run
 * tries {@value #DEFAULT_CASES} cases per file kind (half flips, half truncations) and takes a
 * few seconds; {@code -Dtala.long=true} tries {@value #LONG_CASES}. Seeded: {@code
 * -Dtala.corruption.seed=N} changes the base seed; a failure prints its case seed, and {@code
 * -Dtala.corruption.case=KIND:MODE:SEED} (e.g. {@code SEGMENT:FLIP:123}) reruns just that case.
 */
class CorruptionFuzzTest {
    static final int DEFAULT_CASES = 100;
    static final int LONG_CASES = 4000;
    static final long SEED = Long.getLong("tala.corruption.seed", 20_250_611L);
    static final int CASES = Boolean.getBoolean("tala.long") ? LONG_CASES : DEFAULT_CASES;
    static final String ONLY = System.getProperty("tala.corruption.case", "");

    @TempDir
    static Path work;
    static BaseDatabases.Bases bases;
    /** Every group's counts, printed together at the end. */
    static final List<Tally> TALLIES = new ArrayList<>();

    @BeforeAll
    static void buildBases() {
        bases = BaseDatabases.build(work.resolve("bases"), SEED);
        System.out.println("corruption fuzz: base seed " + SEED + ", " + CASES + " cases per file kind; main base has "
                + bases.main().history().writes().size() + " writes in " + bases.main().liveSegments().size()
                + " segments and " + bases.main().walFiles().size() + " WAL file; two-wal base has "
                + bases.twoWal().walFiles().size() + " WAL files");
    }

    @AfterAll
    static void printSummary() {
        StringBuilder sb = new StringBuilder("corruption fuzz summary, base seed " + SEED + ":\n" + Tally.header());
        TALLIES.forEach(t -> sb.append("\n").append(t.line()));
        System.out.println(sb);
    }

    /** The harness itself: an undamaged copy verifies clean, opens clean and reads exactly the model. */
    @ParameterizedTest
    @EnumSource(FileKind.class)
    void undamagedCopyReadsExactlyTheModel(FileKind kind) {
        BaseDatabase base = kind.base(bases);
        Path dir = work.resolve("undamaged-" + kind);
        // A truncation to the full length changes nothing: the same path as a case, with no damage.
        Path file = kind.candidates(base).getFirst();
        Damage none = DamagePlanner.truncation(kind, base, DamagePlanner.read(file).length);
        CaseResult r = CaseRunner.run(base, none, dir);
        System.out.println("undamaged " + kind.label() + ": " + r);
        assertEquals(List.of(), r.failures());
        assertEquals(CaseResult.End.READS_RIGHT, r.end());
        assertTrue(DatabaseVerifier.verify(LocalFileLayer.INSTANCE, base.layout()).isClean());
    }

    @ParameterizedTest
    @EnumSource(FileKind.class)
    void randomBitFlipsAreDetectedAndNeverServed(FileKind kind) {
        runRandomCases(kind, Damage.Mode.FLIP);
    }

    @ParameterizedTest
    @EnumSource(FileKind.class)
    void randomTruncationsAreDetectedAndNeverServed(FileKind kind) {
        runRandomCases(kind, Damage.Mode.TRUNCATE);
    }

    /**
     * Truncations that leave only whole WAL records or MANIFEST edits: the cases a random length
     * rarely hits and no checksum can see, so every one is tried.
     */
    @ParameterizedTest
    @EnumSource(value = FileKind.class, names = {"NEWEST_WAL", "OLDER_WAL", "MANIFEST"})
    void truncationsAtEveryEntryBoundary(FileKind kind) {
        BaseDatabase base = kind.base(bases);
        LogLayout layout = DamagePlanner.layout(kind, DamagePlanner.read(kind.candidates(base).getFirst()));
        List<Damage> cases = new ArrayList<>();
        for (long length : layout.boundaries()) {
            cases.add(DamagePlanner.truncation(kind, base, length));
        }
        runCases(kind.label() + " / truncation at entry boundaries", base, cases);
    }

    /**
     * Every bit of the WAL and MANIFEST file headers, which no record checksum covers: each field
     * must be checked by value, or the damage goes unseen.
     */
    @ParameterizedTest
    @EnumSource(value = FileKind.class, names = {"NEWEST_WAL", "OLDER_WAL", "MANIFEST"})
    void everyBitOfTheLogFileHeaders(FileKind kind) {
        BaseDatabase base = kind.base(bases);
        LogLayout layout = DamagePlanner.layout(kind, DamagePlanner.read(kind.candidates(base).getFirst()));
        List<Damage> cases = new ArrayList<>();
        for (int offset = 0; offset < layout.headerBytes(); offset++) {
            for (int bit = 0; bit < 8; bit++) {
                cases.add(DamagePlanner.flip(kind, base, offset, bit));
            }
        }
        runCases(kind.label() + " / bit flip in the file header", base, cases);
    }

    private void runRandomCases(FileKind kind, Damage.Mode mode) {
        BaseDatabase base = kind.base(bases);
        Random seeds = new Random(SEED * 31 + kind.ordinal() * 7L + mode.ordinal());
        List<Damage> cases = new ArrayList<>();
        for (int i = 0; i < CASES / 2; i++) {
            cases.add(DamagePlanner.random(kind, mode, base, seeds.nextLong()));
        }
        if (!ONLY.isEmpty()) {
            String[] parts = ONLY.split(":");
            if (!parts[0].equals(kind.name()) || !parts[1].equals(mode.name())) {
                return;
            }
            cases = List.of(DamagePlanner.random(kind, mode, base, Long.parseLong(parts[2])));
        }
        runCases(kind.label() + " / " + mode.label(), base, cases);
    }

    private void runCases(String title, BaseDatabase base, List<Damage> cases) {
        Tally tally = new Tally(title);
        for (int i = 0; i < cases.size(); i++) {
            Damage d = cases.get(i);
            // Printed before the case runs, so that if the JVM dies the output names the case.
            System.out.println("case: " + d);
            System.out.flush();
            Path dir = work.resolve("case-" + title.replaceAll("[^a-z]+", "-") + "-" + i);
            CaseResult r = CaseRunner.run(base, d, dir);
            tally.add(r);
            if (r.passed()) {
                DirectoryCopy.delete(dir);
            } else {
                System.out.println("FAILED " + r + "\n    rerun: -Dtala.corruption.seed=" + SEED
                        + " -Dtala.corruption.case=" + d.kind().name() + ":" + d.mode().name() + ":" + d.seed());
            }
        }
        System.out.println("corruption fuzz, " + tally);
        TALLIES.add(tally);
        assertTrue(tally.failed().isEmpty(), tally + "\n" + tally.failed().stream().map(CaseResult::toString)
                .reduce("", (a, b) -> a + "\n" + b) + "\nbase seed " + SEED);
    }
}
