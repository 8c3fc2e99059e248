package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A finished last MANIFEST edit damaged by one flipped bit, and what verify must say of it. */
final class DamagedLastEdit {
    private DamagedLastEdit() {
    }

    /** Flips one bit inside the last edit of {@code dir}'s MANIFEST; returns the MANIFEST's path. */
    static Path flipABit(Path dir) throws IOException {
        Path manifest = new DatabaseLayout(dir).manifestFile();
        byte[] bytes = Files.readAllBytes(manifest);
        bytes[bytes.length - 10] ^= 0x10;
        Files.write(manifest, bytes);
        return manifest;
    }

    /**
     * Asserts that verify calls {@code segment}, which the damaged edit listed, and the edit
     * itself damaged (a default open refuses both), not a crash's leftovers the next open drops.
     */
    static void assertVerifyCallsItDamaged(Path dir, Path segment) {
        Path manifest = new DatabaseLayout(dir).manifestFile();
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(segment.toString())
                && p.what().contains("the edit that listed it is damaged; a default open refuses this")),
                verify.problems().toString());
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(manifest.toString())
                && p.what().startsWith("damaged last edit (") && p.what().endsWith("so it was a finished edit;"
                + " a default open refuses this")), verify.problems().toString());
    }

    /**
     * Asserts what verify says when the damaged edit was a compaction's that deleted its
     * {@code inputs}: the edit is called a finished one that every open refuses, not a torn one
     * it drops; each input as missing, which every open refuses; and {@code output}, which the
     * edit listed, as left in place, not as set aside by the next open.
     */
    static void assertVerifyCallsItAFinishedCompaction(Path dir, List<Path> inputs, Path output) {
        Path manifest = new DatabaseLayout(dir).manifestFile();
        VerifyReport verify = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, new DatabaseLayout(dir));
        String all = verify.problems().toString();
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(manifest.toString())
                && p.what().startsWith("damaged last edit (") && p.what().contains("so it was a finished edit")
                && p.what().endsWith("an open refuses this in every recovery mode")), all);
        for (Path input : inputs) {
            assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(input.toString())
                    && p.what().equals("listed in the MANIFEST but missing (an open refuses this in every recovery"
                    + " mode)")), all);
        }
        assertEquals(1, verify.problems().stream().filter(p -> p.file().equals(output.toString())).count(), all);
        assertTrue(verify.problems().stream().anyMatch(p -> p.file().equals(output.toString())
                && p.what().contains("left in place")), all);
        assertFalse(all.contains("the next open drops it") || all.contains("moves it to lost/"), all);
    }
}
