package dev.tala.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tala.core.error.StorageException;
import dev.tala.core.io.ForwardingFileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.io.MappedRegion;
import dev.tala.core.testing.RandomIntents;
import dev.tala.wal.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction that writes several outputs maps each one in turn (Compactor.compact). When mapping
 * a later output fails (ENOMEM, vm.max_map_count reached...), the outputs already mapped were in no
 * live set: nothing closed their shared Arena, so they stayed mapped for the life
 * of the JVM, even after the database is closed.
 */
class CompactionOutputMapFailureLeakTest {
    static final int DIM = 64;

    @TempDir
    Path root;

    @Test
    void outputsMappedBeforeAFailedMapAreUnmappedAtClose() throws Exception {
        Path dir = root.resolve("db");
        Set<Path> mappedOnce = new HashSet<>();
        AtomicBoolean armed = new AtomicBoolean();
        ForwardingFileLayer layer = new ForwardingFileLayer(LocalFileLayer.INSTANCE) {
            @Override
            public MappedRegion map(Path file) throws IOException {
                // While armed: the first compaction output maps fine, the second one fails.
                if (armed.get() && file.toString().endsWith(".tbf") && mappedOnce.add(file)
                        && mappedOnce.size() == 2) {
                    throw new IOException("injected: cannot map " + file);
                }
                return super.map(file);
            }
        };
        Options options = Options.builder().dimension(DIM).durability(Durability.none()).backgroundCompaction(false)
                .targetSegmentBytes(4096).fileLayer(layer).build();
        RandomIntents gen = new RandomIntents(7, DIM);
        TalaDB db = TalaDB.open(dir, options);
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 40; i++) {
                db.put(gen.next());
            }
            db.flush();
        }
        armed.set(true);
        assertThrows(StorageException.class, db::compact);
        db.close();

        List<String> stillMapped = mappingsOf(dir);
        assertEquals(List.of(), stillMapped, "segments still mapped after close (" + mappedOnce + " mapped while armed)");
    }

    private static List<String> mappingsOf(Path dir) throws IOException {
        String real = dir.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(real)).toList();
    }
}
