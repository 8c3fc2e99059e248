package dev.tala.recovery.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.error.CorruptionException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.FileTrees;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.segment.SegmentMeta;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {
    final FileLayer fs = LocalFileLayer.INSTANCE;
    @TempDir
    Path dir;

    static SegmentMeta meta(long id, Random r) {
        int rows = r.nextInt(100_000);
        return new SegmentMeta(id, r.nextInt(4), r.nextInt(1 << 20), rows, r.nextInt(rows + 1),
                r.nextLong() & Long.MAX_VALUE, r.nextLong() & Long.MAX_VALUE, r.nextInt(1000), 1000 + r.nextInt(1000),
                r.nextBoolean());
    }

    /** A random history of flush-like and compaction-like edits, and the state it must produce. */
    static List<ManifestEdit> history(long seed, int n) {
        Random r = new Random(seed);
        List<ManifestEdit> edits = new ArrayList<>();
        List<Long> live = new ArrayList<>();
        long next = 10;
        for (int i = 0; i < n; i++) {
            ManifestEdit.Builder b = ManifestEdit.builder();
            if (!live.isEmpty() && r.nextInt(3) == 0) {
                int inputs = 1 + r.nextInt(live.size());
                for (int k = 0; k < inputs; k++) {
                    b.remove(live.remove(r.nextInt(live.size())));
                }
            }
            long id = next++;
            b.add(meta(id, r)).logNumber(next).nextFileNumber(next + 1).lastSequence(i * 100L);
            live.add(id);
            edits.add(b.build());
        }
        return edits;
    }

    static ManifestState applyAll(List<ManifestEdit> edits) {
        ManifestState s = ManifestState.EMPTY;
        for (ManifestEdit e : edits) {
            s = s.apply(e);
        }
        return s;
    }

    /**
     * The state a history of edits leads to, checked against what each edit says rather than
     * against {@link ManifestState#apply} itself: a flush adds a segment and raises the log
     * number (the WAL files below it are deleted on the next open), a compaction removes its
     * inputs (which become obsolete) in the edit that adds its output, and no counter moves back.
     */
    @Test
    void editsApplyAsEachOneSays() throws IOException {
        Random r = new Random(11);
        SegmentMeta a = meta(4, r);
        SegmentMeta b = meta(6, r);
        SegmentMeta merged = meta(8, r);
        List<ManifestEdit> edits = List.of(
                ManifestEdit.builder().add(a).logNumber(5).nextFileNumber(6).lastSequence(100).build(),
                ManifestEdit.builder().add(b).logNumber(7).nextFileNumber(8).lastSequence(200).build(),
                ManifestEdit.builder().add(merged).remove(4).remove(6).nextFileNumber(9).build(),
                // An older edit's counters, replayed after a newer one, change nothing.
                ManifestEdit.builder().logNumber(3).nextFileNumber(2).lastSequence(50).build());
        Path file = dir.resolve("MANIFEST");
        try (Manifest m = Manifest.create(fs, file, ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES)) {
            for (ManifestEdit e : edits) {
                m.append(e);
            }
        }
        for (ManifestState s : List.of(applyAll(edits), ManifestReader.read(fs, file).state())) {
            assertEquals(List.of(8L), List.copyOf(s.segments().keySet()), "the compaction's inputs are gone");
            assertEquals(merged, s.segments().get(8L));
            assertEquals(List.of(4L, 6L), List.copyOf(s.obsolete()), "its inputs are obsolete");
            assertEquals(7, s.logNumber(), "the WAL cut-off of the last flush");
            assertEquals(9, s.nextFileNumber());
            assertEquals(200, s.lastSequence());
        }
    }

    @Property(tries = 40)
    void editsReplayToTheSameState(@ForAll long seed, @ForAll @IntRange(min = 0, max = 30) int n) throws IOException {
        Path root = Files.createTempDirectory("manifest");
        try {
            Path file = root.resolve("MANIFEST");
            List<ManifestEdit> edits = history(seed, n);
            try (Manifest m = Manifest.create(fs, file, ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES)) {
                for (ManifestEdit e : edits) {
                    m.append(e);
                }
                assertEquals(applyAll(edits), m.state());
            }
            ManifestReader.Result r = ManifestReader.read(fs, file);
            assertEquals(applyAll(edits), r.state());
            assertEquals(n + 1, r.edits(), "the snapshot edit plus one per append");
            assertEquals(0, r.tornTailBytes());
        } finally {
            FileTrees.delete(root);
        }
    }

    /**
     * After a write fails (a full disk half-way through an edit, or a failed force) no edit may
     * follow: an intact edit after the damaged one would make the file unreadable.
     */
    @Test
    void noEditFollowsAFailedWrite() throws IOException {
        List<ManifestEdit> edits = history(8, 4);
        for (boolean diskFull : new boolean[] {true, false}) {
            Path file = Files.createDirectories(dir.resolve("full-" + diskFull)).resolve("MANIFEST");
            FaultInjectingFileLayer fault = new FaultInjectingFileLayer(dir.resolve("stash-" + diskFull));
            try (Manifest m = Manifest.create(fault, file, ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES)) {
                m.append(edits.get(0));
                m.append(edits.get(1));
                if (diskFull) {
                    fault.diskFullAfter(10);
                } else {
                    // (the file is still open under the temporary name it was created with)
                    fault.failForces(p -> p.getFileName().toString().startsWith("MANIFEST"));
                }
                assertThrows(IOException.class, () -> m.append(edits.get(2)), diskFull ? "disk full" : "failed force");
                fault.clearDiskFull();
                fault.clearForceFailures();
                IOException refused = assertThrows(IOException.class, () -> m.append(edits.get(3)));
                assertTrue(refused.getMessage().contains("no edit may follow a failed write"), refused.getMessage());
                assertEquals(applyAll(edits.subList(0, 2)), m.state());
            }
            ManifestReader.Result r = ManifestReader.read(fs, file);
            assertEquals(applyAll(edits.subList(0, diskFull ? 2 : 3)), r.state(), "the file reads, ending in"
                    + (diskFull ? " a torn edit" : " the edit whose force failed (the simulated page cache kept it)"));
        }
    }

    @Test
    void aTornLastEditIsIgnoredAtEveryCut() throws IOException {
        Path file = dir.resolve("MANIFEST");
        List<ManifestEdit> edits = history(3, 4);
        List<Long> ends = new ArrayList<>();
        try (Manifest m = Manifest.create(fs, file, ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES)) {
            for (ManifestEdit e : edits) {
                m.append(e);
                ends.add(m.size());
            }
        }
        byte[] full = Files.readAllBytes(file);
        long lastStart = ends.get(ends.size() - 2);
        for (long cut = lastStart; cut < full.length; cut++) {
            Files.write(file, Arrays.copyOf(full, (int) cut));
            ManifestReader.Result r = ManifestReader.read(fs, file);
            assertEquals(applyAll(edits.subList(0, edits.size() - 1)), r.state(), "cut at " + cut);
            assertEquals(cut - lastStart, r.tornTailBytes());
        }
    }

    @Test
    void damageBeforeAnIntactEditIsCorruptionWithItsOffset() throws IOException {
        Path file = dir.resolve("MANIFEST");
        List<Long> ends = new ArrayList<>();
        try (Manifest m = Manifest.create(fs, file, ManifestState.EMPTY, Manifest.DEFAULT_REWRITE_BYTES)) {
            ends.add(m.size());
            for (ManifestEdit e : history(4, 3)) {
                m.append(e);
                ends.add(m.size());
            }
        }
        byte[] clean = Files.readAllBytes(file);
        for (int victim = 0; victim < ends.size() - 1; victim++) {
            long start = victim == 0 ? ManifestFormat.FILE_HEADER_BYTES : ends.get(victim - 1);
            for (long at = start; at < ends.get(victim); at++) {
                byte[] bad = clean.clone();
                bad[(int) at] ^= 0x10;
                Files.write(file, bad);
                CorruptionException e = assertThrows(CorruptionException.class, () -> ManifestReader.read(fs, file),
                        "byte " + at);
                assertTrue(e.offset() >= start && e.offset() < ends.get(victim), "offset " + e.offset());
                assertTrue(e.file().endsWith("MANIFEST"));
            }
        }
        byte[] badMagic = clean.clone();
        badMagic[0] = 'X';
        Files.write(file, badMagic);
        assertEquals(0, assertThrows(CorruptionException.class, () -> ManifestReader.read(fs, file)).offset());
    }

    @Test
    void aLargeManifestIsRewrittenAsOneSnapshot() throws IOException {
        Path file = dir.resolve("MANIFEST");
        List<ManifestEdit> edits = history(5, 200);
        try (Manifest m = Manifest.create(fs, file, ManifestState.EMPTY, 2_000)) {
            for (ManifestEdit e : edits) {
                m.append(e);
            }
            assertTrue(m.rewrites() > 2, "rewrites: " + m.rewrites());
            assertTrue(m.size() < 2_000 + 4_000, "size stays bounded: " + m.size());
        }
        assertEquals(applyAll(edits), ManifestReader.read(fs, file).state());
        assertFalse(Files.exists(dir.resolve("MANIFEST.tmp")));
    }

    /**
     * A rewrite forgets the obsolete segments whose files are gone, so a long-lived database's
     * MANIFEST does not carry every compaction input it ever deleted; one whose file is still
     * there stays listed, so the next open deletes it rather than moving it to lost/.
     */
    @Test
    void aRewriteForgetsObsoleteSegmentsWhoseFilesAreGone() throws IOException {
        Path file = dir.resolve("MANIFEST");
        List<ManifestEdit> edits = history(7, 300);
        ManifestState all = applyAll(edits);
        long kept = all.obsolete().first();
        int[] syncs = {0};
        try (Manifest m = Manifest.create(fs, file, ManifestState.EMPTY, 2_000)) {
            m.forgetDeletedObsoleteSegments(new Manifest.DeletedSegments() {
                @Override
                public boolean isDeleted(long id) {
                    return id != kept;
                }

                @Override
                public void makeDeletionsDurable() {
                    syncs[0]++;
                }
            });
            for (ManifestEdit e : edits) {
                m.append(e);
            }
            assertTrue(m.rewrites() > 2, "rewrites: " + m.rewrites());
            assertTrue(m.state().obsolete().contains(kept), "an obsolete segment whose file exists is kept");
            assertTrue(m.state().obsolete().size() < all.obsolete().size() / 4,
                    m.state().obsolete().size() + " of " + all.obsolete().size() + " obsolete ids kept");
            assertEquals(m.state(), ManifestReader.read(fs, file).state());
            assertTrue(syncs[0] > 0 && syncs[0] <= m.rewrites(), "deletions made durable before a rewrite forgets them");
        }
        assertEquals(all.segments(), ManifestReader.read(fs, file).state().segments());
    }

    /** Power loss after every operation of a rewrite: the manifest is the old state or the new one. */
    @Test
    void aRewriteInterruptedAtAnyOperationLeavesTheOldOrTheNewState() throws IOException {
        List<ManifestEdit> edits = history(6, 6);
        ManifestState before = applyAll(edits.subList(0, 5));
        ManifestState after = before.apply(edits.get(5));
        int points = 0;
        for (int k = 0; ; k++) {
            Path root = Files.createDirectories(dir.resolve("crash-" + k));
            Path db = Files.createDirectories(root.resolve("db"));
            Path file = db.resolve("MANIFEST");
            try (Manifest m = Manifest.create(fs, file, before, 1)) {
                // size is already over the 1-byte limit: the next append rewrites
            }
            FaultInjectingFileLayer faulty = new FaultInjectingFileLayer(root.resolve("stash"));
            boolean completed;
            try (Manifest m = Manifest.create(faulty, file, before, 1)) {
                faulty.crashAfter(k);
                m.append(edits.get(5));
                completed = true;
            } catch (IOException crash) {
                completed = false;
            }
            boolean crashed = faulty.hasCrashed();
            faulty.powerLoss();
            ManifestState seen = ManifestReader.read(fs, file).state();
            assertTrue(seen.equals(before) || seen.equals(after), "crash after op " + k);
            points++;
            if (completed && !crashed) {
                assertEquals(after, seen);
                break;
            }
        }
        assertTrue(points > 4, "covered " + points + " crash points");
    }
}
