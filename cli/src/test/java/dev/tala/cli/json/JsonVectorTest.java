package dev.tala.cli.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JsonVectorTest {
    @Test
    void valuesAreRoundedOnceToFloat() {
        assertArrayEquals(new float[] {0.1f, -2f, 3e-5f}, JsonVector.parse("[0.1, -2, 3e-5]", "--vector"));
        // Just below the midpoint of 1 + 2^-23 and 1 + 2^-22: through a double it becomes the
        // midpoint itself, which then rounds to the even neighbour, the wrong one.
        assertEquals(Math.nextUp(1f), JsonVector.parse("[1.0000001788139343261718749]", "--vector")[0]);
        assertEquals(Math.nextUp(Math.nextUp(1f)), (float) Double.parseDouble("1.0000001788139343261718749"));
        assertEquals(0, JsonVector.parse(" [ ] ", "--vector").length);
    }

    @Test
    void nonFiniteLiteralsPassForTheSearchToNameByPosition() {
        float[] v = JsonVector.parse("[1, NaN, Infinity]", "--vector");
        assertTrue(Float.isNaN(v[1]));
        assertEquals(Float.POSITIVE_INFINITY, v[2]);
    }

    @Test
    void errorsNameTheOptionAndTheValue() {
        assertEquals("--vector: value 1 must be a number, got the string \"b\"",
                assertThrows(LineFormatException.class, () -> JsonVector.parse("[1, \"b\"]", "--vector")).getMessage());
        assertTrue(assertThrows(LineFormatException.class, () -> JsonVector.parse("[1, 1e39]", "--vector"))
                .getMessage().startsWith("--vector: value 1 (1e39) is outside the range of a 32-bit float"));
        assertEquals("--vector: expected a JSON array of numbers, e.g. [0.1, 0.2]",
                assertThrows(LineFormatException.class, () -> JsonVector.parse("{\"a\": 1}", "--vector")).getMessage());
        assertEquals("--vector: text after the array's closing bracket",
                assertThrows(LineFormatException.class, () -> JsonVector.parse("[1] [2]", "--vector")).getMessage());
        String broken = assertThrows(LineFormatException.class, () -> JsonVector.parse("[1, 2", "--vector"))
                .getMessage();
        assertTrue(broken.startsWith("--vector: not a JSON array of numbers: "), broken);
        // Jackson's own location ("[Source: REDACTED ...; line: 1, column: 1]") is not shown.
        assertTrue(!broken.contains("Source") && broken.contains("(opened at column 1)"), broken);
        assertTrue(assertThrows(LineFormatException.class, () -> JsonVector.parse("", "--vector")).getMessage()
                .contains("expected a JSON array"));
    }
}
