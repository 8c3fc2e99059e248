package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.compaction.LeveledPolicy;
import dev.tala.compaction.LeveledSettings;
import dev.tala.segment.EmbeddingType;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Builder refusals name the option and the value given (from an audit of the options). */
class OptionsTest {
    @Test
    void everyBoundNamesTheOptionAndTheValueGiven() {
        List<Object[]> cases = List.<Object[]>of(
                new Object[] {(Consumer<Options.Builder>) b -> b.maxImmutableMemtables(0),
                    "maxImmutableMemtables must be at least 1 (frozen memtables waiting for a flush), got 0"},
                new Object[] {(Consumer<Options.Builder>) b -> b.compactionBytesPerSecond(-7),
                    "compactionBytesPerSecond must be >= 0 (0: no cap), got -7"},
                new Object[] {(Consumer<Options.Builder>) b -> b.targetSegmentBytes(4095),
                    "targetSegmentBytes must be at least 4096, got 4095"},
                new Object[] {(Consumer<Options.Builder>) b -> b.targetSegmentBytes(Options.MAX_TARGET_SEGMENT_BYTES + 1),
                    "targetSegmentBytes must be at most 1073741824 (an output's commands must fit one 2 GiB string"
                            + " table), got 1073741825"},
                new Object[] {(Consumer<Options.Builder>) b -> b.level0StallSegments(0),
                    "level0StallSegments must be at least 1, got 0"});
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            Consumer<Options.Builder> set = (Consumer<Options.Builder>) c[0];
            assertEquals(c[1], assertThrows(IllegalArgumentException.class, () -> set.accept(Options.builder()))
                    .getMessage());
        }
        assertEquals("embeddingType", assertThrows(NullPointerException.class,
                () -> Options.builder().embeddingType(null)).getMessage());
    }

    /**
     * A larger target was taken, and a compaction of 2.2 GB of commands with an 8 GiB target then
     * failed after reading them all: compact() threw IllegalArgumentException, and the background
     * compaction ran out of a 7 GiB heap and failed the database. The largest target is still taken.
     */
    @Test
    void aTargetSegmentSizeWhoseCommandsCouldNotFitOneSegmentIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Options.builder().targetSegmentBytes(8L << 30));
        assertEquals(Options.MAX_TARGET_SEGMENT_BYTES,
                Options.builder().targetSegmentBytes(Options.MAX_TARGET_SEGMENT_BYTES).build().targetSegmentBytes());
    }

    /** A cold level the policy never writes would leave the setting silently without effect. */
    @Test
    void aColdLevelDeeperThanThePolicyWritesIsRefused() {
        LeveledPolicy threeLevels = new LeveledPolicy(new LeveledSettings(2, 8192, 2, 3));
        Options.Builder deep = Options.builder().compactionPolicy(threeLevels).coldEmbeddingType(EmbeddingType.INT8, 4);
        assertEquals("coldEmbeddingType from level 4 would never apply: the compaction policy's deepest level is 3",
                assertThrows(IllegalArgumentException.class, deep::build).getMessage());
        assertEquals(3, Options.builder().compactionPolicy(threeLevels).coldEmbeddingType(EmbeddingType.INT8, 3)
                .build().coldLevel());
    }
}
