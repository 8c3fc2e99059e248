package dev.tala.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.fault.FaultInjectingFileLayer;
import dev.tala.core.io.fault.SimulatedCrashException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileLayer#writeAtomically}, under the fault-injecting layer's power loss. From an audit
 * of every sync: its one caller today (OPTIONS, when a database is created) is followed at once
 * by the MANIFEST's creation, whose directory sync covers the same directory, so no engine test
 * saw its own directory sync go. The method promises more than that caller needs, and these
 * tests hold it to the promise: once it returns the new content survives a power loss, and a
 * crash at any point before leaves the old content or the new, never a mix or nothing.
 */
class WriteAtomicallyTest {
    @TempDir
    Path tmp;

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A target holding "old", durably, written through a layer that is then discarded. */
    private Path durableOld(String name) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Path target = dir.resolve("OPTIONS");
        FaultInjectingFileLayer setup = new FaultInjectingFileLayer(tmp.resolve(name + "-setup-stash"));
        try (WritableFile out = setup.create(target)) {
            out.append(ByteBuffer.wrap(text("old")));
            out.force();
        }
        setup.syncDirectory(dir);
        return target;
    }

    @Test
    void theNewContentSurvivesAPowerLossOnceTheCallReturns() throws IOException {
        Path target = durableOld("returned");
        FaultInjectingFileLayer fs = new FaultInjectingFileLayer(tmp.resolve("returned-stash"));
        fs.writeAtomically(target, text("new"));
        fs.powerLoss();
        assertEquals("new", Files.readString(target),
                "the new content (its bytes, or its name) was not durable when the call returned");
        assertFalse(Files.exists(FileLayer.temporaryFor(target)));
    }

    @Test
    void aCrashAtAnyPointLeavesTheOldContentOrTheNew() throws IOException {
        for (int k = 0; ; k++) {
            Path target = durableOld("crash-" + k);
            FaultInjectingFileLayer fs = new FaultInjectingFileLayer(tmp.resolve("crash-" + k + "-stash"));
            fs.crashAfter(k);
            boolean crashed;
            try {
                fs.writeAtomically(target, text("new"));
                crashed = false;
            } catch (SimulatedCrashException expected) {
                crashed = true;
            }
            fs.powerLoss(FaultInjectingFileLayer.PowerLossMode.TORN_TAIL, k);
            String after = Files.readString(target);
            assertTrue(after.equals("old") || after.equals("new"), "crash after " + k + " operations left '"
                    + after + "'");
            if (!crashed) {
                assertEquals("new", after);
                assertTrue(k > 3, "the write took " + k + " operations");
                return;
            }
        }
    }
}
