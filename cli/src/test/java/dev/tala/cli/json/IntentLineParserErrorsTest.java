package dev.tala.cli.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.StringJoiner;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Every kind of bad line is rejected with the field at fault and a message a person understands. */
class IntentLineParserErrorsTest {
    private final IntentLineParser parser = new IntentLineParser(3);

    /** Asserts that the line is rejected, naming {@code field}, with all {@code fragments} in the message. */
    private LineFormatException rejects(Object line, String field, String... fragments) {
        LineFormatException e = assertThrows(LineFormatException.class, () -> parser.parse(line.toString()));
        assertEquals(field, e.field(), () -> "field of: " + e.getMessage());
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment), () -> "\"" + e.getMessage() + "\" lacks \"" + fragment + "\"");
        }
        // The byte path must agree with the String path on what is wrong.
        byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
        LineFormatException viaBytes = assertThrows(LineFormatException.class,
                () -> parser.parse(bytes, 0, bytes.length));
        assertEquals(field, viaBytes.field());
        return e;
    }

    @Test
    void theValidBaseLineParses() {
        assertInstanceOf(IntentLine.Put.class, parser.parse(Lines.put().toString()));
    }

    @Nested
    class MalformedJson {
        @Test
        void truncatedLineNamesTheColumn() {
            LineFormatException e = rejects("{\"op\":\"put\",", null, "malformed JSON", "column ");
            assertTrue(e.getMessage().startsWith("malformed JSON at column "), e.getMessage());
        }

        /**
         * (From an audit) an object or string left open: Jackson's message carried its own
         * location, "line: 1" (the parser sees one line at a time) and a feature name, after
         * the file's line number that import puts first.
         */
        @Test
        void anUnclosedObjectOrStringGivesNoLocationButTheColumn() {
            for (String line : new String[] {"{\"op\":\"put\"", "{\"op\":\"pu", "{\"op\":\"put\",\"edges\":["}) {
                LineFormatException e = rejects(line, null, "malformed JSON at column ");
                String message = e.getMessage();
                assertFalse(message.contains("line:") || message.contains("Source") || message.contains("Feature"),
                        message);
            }
            LineFormatException object = rejects("{\"op\":\"put\"", null, "malformed JSON");
            assertTrue(object.getMessage().contains("(opened at column 1)"), object.getMessage());
        }

        @Test
        void columnPointsAtTheProblem() {
            rejects("{\"op\" \"put\"}", null, "malformed JSON at column 7", "colon");
        }

        @Test
        void rawControlCharacterInsideAString() {
            rejects(Lines.put().with("command", "\"a\u0001b\""), null, "malformed JSON");
        }

        /** Past Jackson's own limits: named by the field, and the command hint only for a command. */
        @Test
        void valuesAndNamesPastTheParsersLimits() {
            rejects(Lines.put().with("timestamp", "9".repeat(2000)), "timestamp", "the value is too long to read",
                    "Number value length (2000)");
            LineFormatException number = rejects(Lines.put().with("timestamp", "9".repeat(2000)), "timestamp");
            assertTrue(!number.getMessage().contains("command"), number.getMessage());
            rejects(Lines.put().with("command", "\"" + "a".repeat(20_000_001) + "\""), "command",
                    "the value is too long to read", "a command may hold at most");
            rejects("{\"" + "n".repeat(60_000) + "\":1}", null, "a field name is too long to read");
        }

        @Test
        void notAnObject() {
            rejects("[1,2,3]", null, "expected a JSON object", "an array");
        }

        @Test
        void emptyLine() {
            rejects("", null, "empty");
            rejects("   ", null, "empty");
        }

        @Test
        void secondObjectOnTheSameLine() {
            rejects(Lines.put() + " " + Lines.put(), null, "after the JSON object", "column ");
        }

        @Test
        void garbageAfterTheObject() {
            rejects(Lines.put() + " x", null, "malformed JSON");
        }
    }

    @Nested
    class Fields {
        @Test
        void unknownOp() {
            rejects(Lines.put().with("op", "\"upsert\""), "op", "unknown op \"upsert\"", "put, delete or outcome");
        }

        @Test
        void unknownFieldIsNamed() {
            rejects(Lines.put().with("colour", "\"red\""), "colour", "unknown field");
        }

        @Test
        void fieldTwice() {
            rejects("{\"op\":\"delete\",\"id\":\"" + Lines.ID + "\",\"id\":\"" + Lines.OTHER_ID + "\"}", "id",
                    "appears twice");
            rejects(Lines.put().toString().replace("{", "{\"timestamp\":1,"), "timestamp", "appears twice");
        }

        @Test
        void missingRequiredFieldsOfAPut() {
            rejects(Lines.put().without("timestamp"), "timestamp", "is missing");
            rejects(Lines.put().without("command"), "command", "is missing");
            rejects(Lines.put().without("embedding"), "embedding", "is missing");
            rejects(Lines.put().without("id"), "id", "is missing");
        }

        @Test
        void nullCountsAsMissing() {
            rejects(Lines.put().with("command", "null"), "command", "is missing");
        }

        @Test
        void fieldOfAnotherOp() {
            rejects(Lines.of("delete").with("command", "\"ls\""), "command", "not a field of a \"delete\" line");
            rejects(Lines.put().with("latency_ns", "5"), "latency_ns", "not a field of a \"put\" line");
            rejects(Lines.of("outcome").with("status", "\"success\"").with("embedding", "[1]"), "embedding",
                    "not a field of an \"outcome\" line");
        }

        @Test
        void wrongTypes() {
            rejects(Lines.put().with("timestamp", "\"1700000000\""), "timestamp", "must be an integer",
                    "the string \"1700000000\"");
            rejects(Lines.put().with("timestamp", "1.7e18"), "timestamp", "must be an integer", "the number 1.7e18");
            rejects(Lines.put().with("command", "42"), "command", "must be a string");
            rejects(Lines.put().with("embedding", "{}"), "embedding", "must be an array of numbers", "an object");
            rejects(Lines.put().with("embedding", "[1,\"2\",3]"), "embedding", "value 1 must be a number");
            rejects(Lines.put().with("confidence", "true"), "confidence", "must be a number, got true");
            rejects(Lines.put().with("op", "1"), "op", "must be a string");
            rejects(Lines.put().with("edges", "{}"), "edges", "must be an array");
            rejects(Lines.put().with("edges", "[1]"), "edges[0]", "must be an object");
            rejects(Lines.put().with("outcome", "[]"), "outcome", "must be an object");
        }

        @Test
        void malformedIds() {
            rejects(Lines.put().with("id", "\"not-a-uuid\""), "id", "\"not-a-uuid\" is not a UUID");
            rejects(Lines.put().with("edges", "[{\"target\":\"0190a6f2\",\"relation\":\"causal\"}]"), "edges[0].target",
                    "is not a UUID");
        }
    }

    @Nested
    class Values {
        @Test
        void nanAndInfinityAreRejectedByField() {
            rejects(Lines.put().with("embedding", "[1,NaN,2]"), "embedding", "value 1 is NaN", "finite");
            rejects(Lines.put().with("embedding", "[1,2,-Infinity]"), "embedding", "value 2 is -Infinity");
            rejects(Lines.put().with("confidence", "NaN"), "confidence", "NaN");
            rejects(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID
                    + "\",\"relation\":\"retry\",\"weight\":Infinity}]"), "edges[0].weight", "finite", "Infinity");
        }

        @Test
        void finiteLiteralTooLargeForAFloat() {
            rejects(Lines.put().with("embedding", "[1,1e39,2]"), "embedding", "value 1 (1e39) is outside", "32-bit float");
            rejects(Lines.put().with("embedding", "[1,2,1" + "0".repeat(40) + "]"), "embedding", "32-bit float");
        }

        @Test
        void embeddingOfTheWrongDimension() {
            IntentLineParser dim384 = new IntentLineParser(384);
            LineFormatException e = assertThrows(LineFormatException.class,
                    () -> dim384.parse(Lines.put().with("embedding", "[1,2,3]").toString()));
            assertEquals("embedding", e.field());
            assertEquals("embedding: has 3 values but the database's dimension is 384", e.getMessage());
            rejects(Lines.put().with("embedding", "[1,2,3,4]"), "embedding", "has 4 values", "dimension is 3");
            rejects(Lines.put().with("embedding", "[]"), "embedding", "got 0");
        }

        @Test
        void confidenceOutsideZeroToOne() {
            rejects(Lines.put().with("confidence", "1.5"), "confidence", "within [0, 1]", "1.5");
            rejects(Lines.put().with("confidence", "-0.01"), "confidence", "within [0, 1]");
        }

        @Test
        void contextHashOutsideTheUnsignedRange() {
            rejects(Lines.put().with("context_hash", "-1"), "context_hash", "between 0 and 18446744073709551615",
                    "got -1");
            rejects(Lines.put().with("context_hash", "18446744073709551616"), "context_hash",
                    "between 0 and 18446744073709551615");
            rejects(Lines.put().with("context_hash", "-99999999999999999999"), "context_hash", "between 0");
            rejects(Lines.put().with("context_hash", "0.5"), "context_hash", "must be an integer");
        }

        @Test
        void timestampOutOfRange() {
            rejects(Lines.put().with("timestamp", "-5"), "timestamp", ">= 0", "-5");
            rejects(Lines.put().with("timestamp", "-18446744073709551616"), "timestamp", ">= 0");
            rejects(Lines.put().with("timestamp", "9223372036854775808"), "timestamp", "at most 9223372036854775806");
            rejects(Lines.put().with("timestamp", "9223372036854775807"), "timestamp", "at most 9223372036854775806");
        }

        @Test
        void unknownStatusAndRelation() {
            rejects(Lines.put().with("status", "\"done\""), "status", "unknown status \"done\"",
                    "pending, success, failure or partial");
            rejects(Lines.put().with("status", "\"SUCCESS\""), "status", "unknown status");
            rejects(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID + "\",\"relation\":\"causal\"},"
                    + "{\"target\":\"" + Lines.OTHER_ID + "\",\"relation\":\"causes\"}]"), "edges[1].relation",
                    "unknown relation \"causes\"", "causal, temporal, dependency, retry or branch");
        }

        @Test
        void commandOver64KiBOfUtf8() {
            // 21846 three-byte characters = 65538 bytes, while only 21846 chars.
            rejects(Lines.put().with("command", "\"" + "€".repeat(21_846) + "\""), "command", "65538 bytes",
                    "limit is 65536");
            String exactly = "a".repeat(65_536);
            IntentLine ok = parser.parse(Lines.put().with("command", "\"" + exactly + "\"").toString());
            assertEquals(exactly, ((IntentLine.Put) ok).intent().command());
        }

        @Test
        void unpairedSurrogateInCommand() {
            rejects(Lines.put().with("command", "\"\\ud800x\""), "command", "Unicode");
        }

        @Test
        void moreThan1024Edges() {
            rejects(Lines.put().with("edges", edges(1025)), "edges", "has 1025 edges", "limit is 1024");
            IntentLine ok = parser.parse(Lines.put().with("edges", edges(1024)).toString());
            assertEquals(1024, ((IntentLine.Put) ok).intent().edges().size());
        }

        @Test
        void exitCodeBeyond32Bits() {
            rejects(Lines.put().with("outcome", "{\"latency_ns\":1,\"exit_code\":2147483648}"), "outcome.exit_code",
                    "32-bit integer");
        }

        @Test
        void negativeLatencyIsNamedWhereItIs() {
            rejects(Lines.put().with("outcome", "{\"latency_ns\":-1,\"exit_code\":0}"), "outcome.latency_ns", ">= 0");
            rejects(Lines.of("outcome").with("status", "\"failure\"").with("latency_ns", "-1").with("exit_code", "1"),
                    "latency_ns", ">= 0");
        }
    }

    @Nested
    class NestedObjects {
        @Test
        void edgeFields() {
            rejects(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID + "\"}]"), "edges[0].relation",
                    "is missing");
            rejects(Lines.put().with("edges", "[{\"relation\":\"causal\"}]"), "edges[0].target", "is missing");
            rejects(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID
                    + "\",\"relation\":\"causal\",\"colour\":1}]"), "edges[0].colour", "unknown field");
            rejects(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID
                    + "\",\"relation\":\"causal\",\"relation\":\"retry\"}]"), "edges[0].relation", "twice");
            rejects(Lines.put().with("edges", "[{\"target\":\"" + Lines.OTHER_ID
                    + "\",\"relation\":\"causal\",\"weight\":\"heavy\"}]"), "edges[0].weight", "must be a number");
        }

        @Test
        void outcomeFields() {
            rejects(Lines.put().with("outcome", "{\"latency_ns\":5}"), "outcome.exit_code", "is missing");
            rejects(Lines.put().with("outcome", "{\"exit_code\":0}"), "outcome.latency_ns", "is missing");
            rejects(Lines.put().with("outcome", "{\"latency_ns\":5,\"exit_code\":0,\"signal\":9}"), "outcome.signal",
                    "unknown field");
        }

        @Test
        void outcomeLineNeedsBothOrNeither() {
            rejects(Lines.of("outcome").with("status", "\"success\"").with("latency_ns", "5"), "exit_code",
                    "is missing", "together");
            rejects(Lines.of("outcome").with("status", "\"success\"").with("exit_code", "0"), "latency_ns",
                    "is missing");
            rejects(Lines.of("outcome").with("latency_ns", "5").with("exit_code", "0"), "status", "is missing");
        }

        @Test
        void deleteNeedsAnId() {
            rejects("{\"op\":\"delete\"}", "id", "is missing");
        }
    }

    private static String edges(int n) {
        StringJoiner j = new StringJoiner(",", "[", "]");
        for (int i = 0; i < n; i++) {
            j.add("{\"target\":\"" + Lines.OTHER_ID + "\",\"relation\":\"temporal\",\"weight\":0.5}");
        }
        return j.toString();
    }

    @Test
    void messageIsFieldColonReason() {
        LineFormatException e = rejects(Lines.put().with("status", "\"done\""), "status");
        assertEquals("status: " + e.reason(), e.getMessage());
        LineFormatException whole = rejects("[]", null);
        assertNull(whole.field());
        assertEquals(whole.reason(), whole.getMessage());
    }
}
