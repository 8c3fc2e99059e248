package dev.tala.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.io.fault.FaultInjectingFileLayer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForwardingFileLayerTest {
    @TempDir
    Path dir;

    /** A disk whose force takes 20 ms, or fails once {@code failing} is set. */
    private static final class SlowDisk extends ForwardingFileLayer {
        boolean failing;

        SlowDisk() {
            super(LocalFileLayer.INSTANCE);
        }

        @Override
        protected void beforeForce(Path file) throws IOException {
            if (failing) {
                throw new IOException("injected force failure");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class ForceLog extends ForwardingFileLayer {
        final List<Path> files = new ArrayList<>();
        final List<Long> nanos = new ArrayList<>();

        ForceLog(FileLayer inner) {
            super(inner);
        }

        @Override
        protected void afterForce(Path file, long took) {
            files.add(file);
            nanos.add(took);
        }
    }

    @Test
    void afterForceSeesEachForceThatReturnedWithHowLongTheInnerForceTook() throws IOException {
        SlowDisk disk = new SlowDisk();
        ForceLog log = new ForceLog(disk);
        Path file = dir.resolve("f");
        try (WritableFile out = log.create(file)) {
            out.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            out.force();
            out.force();
            assertEquals(List.of(file, file), log.files);
            for (long took : log.nanos) {
                assertTrue(took >= 20_000_000L, "the inner force slept 20 ms, timed " + took + " ns");
            }
            disk.failing = true;
            assertThrows(IOException.class, out::force);
            assertEquals(2, log.files.size(), "a force that failed is not reported as done");
        }
    }

    @Test
    void preallocationIsForwardedWithItsAnswerAndItsRefusal() throws IOException {
        FaultInjectingFileLayer disk = new FaultInjectingFileLayer(dir.resolve("stash"));
        ForwardingFileLayer cannot = new ForwardingFileLayer(disk) {
            @Override
            protected boolean beforePreallocate(Path file, long position, long length) {
                return false;
            }
        };
        ForwardingFileLayer forwarding = new ForwardingFileLayer(disk);
        try (WritableFile out = forwarding.create(dir.resolve("f"));
                WritableFile outOverCannot = new ForwardingFileLayer(cannot).create(dir.resolve("g"))) {
            assertTrue(out.preallocate(0, 4096));
            assertFalse(outOverCannot.preallocate(0, 4096), "the inner layer's answer, not a constant");
            disk.diskFullAfter(10);
            IOException e = assertThrows(IOException.class, () -> out.preallocate(0, 4096));
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        }
    }
}
