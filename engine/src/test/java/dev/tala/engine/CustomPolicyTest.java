package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.compaction.CompactionChoice;
import dev.tala.compaction.CompactionPolicy;
import dev.tala.compaction.CompactionProgress;
import dev.tala.compaction.TieredPolicy;
import dev.tala.core.error.DatabaseFailedException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.segment.SegmentMeta;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit: a custom compaction policy's choice is checked before it runs. Choices the
 * engine cannot run without changing what reads return are refused, and nothing is compacted.
 */
class CustomPolicyTest {
    @TempDir
    Path dir;

    /** Chooses once, when three segments are live. */
    private record ChooseOnce(Function<List<SegmentMeta>, CompactionChoice> chooser, boolean[] used)
            implements CompactionPolicy {
        ChooseOnce(Function<List<SegmentMeta>, CompactionChoice> chooser) {
            this(chooser, new boolean[1]);
        }

        @Override
        public Optional<CompactionChoice> pick(List<SegmentMeta> live) {
            if (live.size() < 3 || used[0]) {
                return Optional.empty();
            }
            used[0] = true;
            return Optional.of(chooser.apply(live));
        }

        @Override
        public int maxLevel() {
            return 6;
        }

        @Override
        public String name() {
            return "once";
        }
    }

    private static Options options(CompactionPolicy policy) {
        return Options.builder().dimension(4).durability(Durability.none()).backgroundCompaction(false)
                .compactionMoves(false).compactionPolicy(policy).build();
    }

    private static Intent intent(long id, String command) {
        return Intent.builder().id(IntentId.of(id, 1)).timestampNs(id).command(command)
                .embedding(new float[] {1, id, 0, 1}).build();
    }

    private static void refused(TalaDB db, String inputs) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> db.compactPending(CompactionProgress.Listener.NONE));
        assertTrue(e.getMessage().startsWith("compaction policy 'once' chose segments " + inputs), e.getMessage());
    }

    /** Run as chosen, the tombstone was dropped and the deleted intent came back. */
    @Test
    void aChoiceMarkedBottommostWithoutTheOldestSegmentIsRefused() {
        Path d = dir.resolve("a");
        ChooseOnce policy = new ChooseOnce(live -> new CompactionChoice(List.of(live.get(0)), 1, true,
                CompactionChoice.Reason.SIZE_RATIO));
        try (TalaDB db = TalaDB.open(d, options(policy))) {
            db.put(intent(1, "A"));
            db.flush();
            db.put(intent(2, "B"));
            db.flush();
            db.delete(IntentId.of(1, 1));
            db.flush();
            List<SegmentMeta> before = db.liveSegments();
            refused(db, "[" + before.get(0).id() + "]");
            assertEquals(before, db.liveSegments(), "nothing was compacted");
            assertEquals(Optional.empty(), db.get(IntentId.of(1, 1)));
            db.put(intent(3, "C"));
        }
        try (TalaDB db = TalaDB.open(d, options(TieredPolicy.withDefaults()))) {
            assertEquals(Optional.empty(), db.get(IntentId.of(1, 1)), "a deleted intent came back after reopen");
            assertEquals(Optional.of("C"), db.get(IntentId.of(3, 1)).map(Intent::command));
        }
    }

    /** Run as chosen, the merged newest and oldest sat below the middle one, and v1 shadowed v2. */
    @Test
    void aChoiceThatSkipsASegmentIsRefused() {
        ChooseOnce policy = new ChooseOnce(live -> new CompactionChoice(List.of(live.get(0), live.get(2)), 1, false,
                CompactionChoice.Reason.SIZE_RATIO));
        try (TalaDB db = TalaDB.open(dir.resolve("b"), options(policy))) {
            db.put(intent(1, "v1"));
            db.flush();
            db.put(intent(1, "v2"));
            db.flush();
            db.put(intent(3, "C"));
            db.flush();
            List<SegmentMeta> live = db.liveSegments();
            refused(db, "[" + live.get(0).id() + ", " + live.get(2).id() + "]");
            assertEquals(Optional.of("v2"), db.get(IntentId.of(1, 1)).map(Intent::command));
        }
    }

    /** Once a policy threw in a background compaction, stats() threw the policy's exception too. */
    @Test
    void statsAnswersAfterAPolicyThrew() throws Exception {
        CompactionPolicy throwing = new CompactionPolicy() {
            @Override
            public Optional<CompactionChoice> pick(List<SegmentMeta> live) {
                if (live.size() >= 2) {
                    throw new IllegalStateException("policy bug");
                }
                return Optional.empty();
            }

            @Override
            public int maxLevel() {
                return 6;
            }

            @Override
            public String name() {
                return "throws";
            }
        };
        Options options = Options.builder().dimension(4).durability(Durability.none()).compactionPolicy(throwing).build();
        try (TalaDB db = TalaDB.open(dir.resolve("c"), options)) {
            db.put(intent(1, "A"));
            db.flush();
            db.put(intent(2, "B"));
            try {
                db.flush();
            } catch (DatabaseFailedException backgroundFailedFirst) {
                // The background compaction the flush scheduled may fail the database first.
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!db.stats().failed() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            DbStats stats = assertDoesNotThrow(db::stats);
            assertTrue(stats.failed(), "the background compaction's failure is reported");
            assertEquals(2, stats.intents());
        }
    }
}
