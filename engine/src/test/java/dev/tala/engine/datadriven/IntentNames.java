package dev.tala.engine.datadriven;

import dev.tala.core.model.IntentId;
import dev.tala.core.testing.datadriven.TestCase;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Short names for intent ids, so that test files and their outputs read {@code a}, {@code deploy}
 * rather than UUIDs. A name is its own id: its ASCII bytes, padded with zeros to 16. Ids compare
 * as unsigned bytes and a zero sorts below every character, so ids sort exactly as their names
 * do ({@code a < ab < b}): wherever the database breaks a tie by id (scans of one timestamp,
 * searches of one score, incoming edges), a file can predict the order from the names alone.
 */
final class IntentNames {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,16}");
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private IntentNames() {
    }

    static boolean isName(String text) {
        return NAME.matcher(text).matches();
    }

    /** The id named {@code name} (1 to 16 of {@code A-Z a-z 0-9 _ . -}). */
    static IntentId id(String name) {
        if (!isName(name)) {
            throw new IllegalArgumentException("\"" + name + "\" is not an intent name (1 to 16 of A-Z a-z 0-9 _ . -)");
        }
        byte[] bytes = new byte[IntentId.BYTES];
        byte[] ascii = name.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(ascii, 0, bytes, 0, ascii.length);
        return IntentId.fromBytes(bytes);
    }

    /** The id named {@code name}, which case {@code c} gives; a bad name is a bad test file. */
    static IntentId id(TestCase c, String name) {
        if (!isName(name)) {
            throw c.bad("\"" + name + "\" is not an intent name (1 to 16 of A-Z a-z 0-9 _ . -)");
        }
        return id(name);
    }

    /** The name of {@code id}, or its UUID when no name makes it. */
    static String name(IntentId id) {
        byte[] bytes = id.toBytes();
        int length = 0;
        while (length < bytes.length && bytes[length] != 0) {
            length++;
        }
        String name = new String(bytes, 0, length, StandardCharsets.US_ASCII);
        return isName(name) && id(name).equals(id) ? name : id.toString();
    }

    /** {@code text} with every UUID that a name makes replaced by the name (for error messages). */
    static String nameIds(String text) {
        Matcher m = UUID.matcher(text);
        return m.replaceAll(r -> Matcher.quoteReplacement(name(IntentId.parse(r.group()))));
    }
}
