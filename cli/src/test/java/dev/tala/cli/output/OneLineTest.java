package dev.tala.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class OneLineTest {
    @Test
    void controlCharactersBecomeEscapes() {
        assertEquals("unknown status \"fail\\nure\"", OneLine.of("unknown status \"fail\nure\""));
        assertEquals("a\\r\\tb\\u001b[31mred\\u007f\\u0085", OneLine.of("a\r\tb\u001b[31mred\u007f\u0085"));
    }

    @Test
    void otherTextIsLeftAsItIs() {
        String text = "état “quoted” 𝄞 ok";
        assertSame(text, OneLine.of(text));
        assertEquals(null, OneLine.of(null));
    }
}
