package dev.tala.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From an audit of every sync: {@link LocalFileLayer}'s force and directory sync are the only
 * real fsyncs TalaDB makes, and every crash test replaces them with the fault-injecting layer,
 * which models durability without calling them. So no crash test would notice either one doing
 * nothing. The JDK reports each {@code FileChannel.force} as a JFR event ({@code jdk.FileForce},
 * with the path and whether metadata was asked for), which shows that each call reaches the
 * operating system: a file's force as fdatasync, a directory's as fsync of the directory.
 */
class LocalFileLayerForceTest {
    @TempDir
    Path tmp;

    @Test
    void aFileForceAndADirectorySyncEachForceTheirChannel() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("dir"));
        Path file = dir.resolve("f");
        List<RecordedEvent> forces;
        try (Recording recording = new Recording()) {
            recording.enable("jdk.FileForce").withThreshold(Duration.ZERO).withoutStackTrace();
            recording.start();
            try (WritableFile f = LocalFileLayer.INSTANCE.create(file)) {
                f.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
                f.force();
            }
            LocalFileLayer.INSTANCE.syncDirectory(dir);
            recording.stop();
            Path dump = tmp.resolve("forces.jfr");
            recording.dump(dump);
            forces = RecordingFile.readAllEvents(dump).stream()
                    .filter(e -> e.getEventType().getName().equals("jdk.FileForce")).toList();
        }
        assertEquals(List.of(file + " data", dir + " data and metadata"),
                forces.stream().map(e -> e.getString("path") + (e.getBoolean("metaData") ? " data and metadata"
                        : " data")).toList(), "the forces the two calls made, in order");
    }
}
