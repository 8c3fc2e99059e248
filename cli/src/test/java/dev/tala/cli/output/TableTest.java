package dev.tala.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TableTest {
    @Test
    void controlCharactersInCellsArePrintedAsEscapes() {
        assertEquals("a\\nb\\r\\tc\\u001b[31md\\u0000\\u2028", Table.printable("a\nb\r\tc\u001b[31md\u0000\u2028"));
        String plain = "kubectl rollout restart deploy/api — über 中 😀";
        assertSame(plain, Table.printable(plain), "text without control characters is returned as it is");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Table t = Table.fields();
        t.row("command", "rm -rf /\n\u001b[2Jgotcha");
        t.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(3, out.lines().count(), out);
        assertFalse(out.contains("\u001b"), out);
    }
}
