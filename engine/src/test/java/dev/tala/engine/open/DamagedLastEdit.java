package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

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
}
