package dev.tala.engine.docformat;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What FORMAT.md says an open accepts and refuses in a hand-edited OPTIONS file. */
class OptionsReaderClaimsTest {
    @TempDir
    Path dir;

    @BeforeEach
    void create() {
        TalaDB.open(dir, Options.builder().dimension(4).build()).close();
    }

    private void write(String text) throws Exception {
        Files.write(dir.resolve("OPTIONS"), text.getBytes(StandardCharsets.UTF_8));
    }

    private void opens() {
        assertDoesNotThrow(() -> TalaDB.open(dir, Options.builder().dimension(4).build()).close());
    }

    private RuntimeException refused() {
        return assertThrows(RuntimeException.class, () -> TalaDB.open(dir, Options.builder().dimension(4).build()).close());
    }

    @Test
    void bomSpacesCommentsAndBlankLinesAreIgnored() throws Exception {
        write("\uFEFF# c\n\n   # indented comment\n format = 1 \ndimension=4\n dtype =f32\n"
                + "memtable_bytes= 67108864\ndurability=batch:5\n");
        opens();
    }

    @Test
    void memtableBytesAbove1GiBOpens() throws Exception {
        write("format=1\ndimension=4\ndtype=f32\nmemtable_bytes=4294967296\ndurability=sync\n");
        opens();
    }

    @Test
    void aLastLineWithoutItsNewlineIsRefused() throws Exception {
        write("format=1\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=sync");
        RuntimeException e = refused();
        assertTrue(e.getMessage().contains("OPTIONS"), e.getMessage());
    }

    @Test
    void aKeyGivenTwiceIsRefused() throws Exception {
        write("format=1\ndimension=4\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=sync\n");
        refused();
    }

    @Test
    void aFileAbove65536BytesIsRefused() throws Exception {
        write("#" + "x".repeat(65_536) + "\nformat=1\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=sync\n");
        refused();
    }

    @Test
    void aFileOfExactly65536BytesOpens() throws Exception {
        String body = "format=1\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=sync\n";
        write("#" + "x".repeat(65_536 - body.length() - 2) + "\n" + body);
        opens();
    }

    @Test
    void batchIntervalsOutsideOneMsToADayAreRefused() throws Exception {
        for (String d : new String[] {"batch:0", "batch:86400001"}) {
            write("format=1\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=" + d + "\n");
            refused();
        }
        write("format=1\ndimension=4\ndtype=f32\nmemtable_bytes=67108864\ndurability=batch:86400000\n");
        opens();
    }
}
