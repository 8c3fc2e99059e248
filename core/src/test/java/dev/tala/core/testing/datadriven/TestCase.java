package dev.tala.core.testing.datadriven;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One case of a test file, as a handler sees it: the command, its arguments, the input lines
 * and the expected output. The typed getters throw {@link BadTestFileException} naming the
 * case's file and line when an argument is missing or malformed; every argument must be read
 * by the handler, or the runner fails the case (a misspelt {@code lmit=5} would otherwise be
 * ignored without a word).
 */
public final class TestCase {
    private final String fileName;
    private final String location;
    private final int line;
    private final String text;
    private final CommandLine parsed;
    private final List<String> inputLines;
    private final int firstInputLine;
    private final String expected;
    private final Set<String> read = new HashSet<>();
    private final List<TestCase> inputCommands = new ArrayList<>();
    private boolean wordsRead;

    /**
     * @param fileName       what locations print before the line number
     * @param line           the 1-based line of the command
     * @param firstInputLine the 1-based line of the first input line
     */
    TestCase(String fileName, int line, String text, List<String> inputLines, int firstInputLine, String expected) {
        this.fileName = fileName;
        this.location = fileName + ":" + line;
        this.line = line;
        this.text = text;
        this.parsed = CommandLine.parse(text, location);
        this.inputLines = List.copyOf(inputLines);
        this.firstInputLine = firstInputLine;
        this.expected = expected;
    }

    /** {@code file:line} of the command line, as failures print it. */
    public String location() {
        return location;
    }

    /** The 1-based line of the command in its file. */
    public int line() {
        return line;
    }

    /** The command line as written (continuation lines joined). */
    public String text() {
        return text;
    }

    public String command() {
        return parsed.command();
    }

    /** The lines between the command and {@code ----}. */
    public List<String> inputLines() {
        return inputLines;
    }

    /** The expected output: each line followed by a newline, or empty. */
    public String expected() {
        return expected;
    }

    /**
     * The input lines read as commands of their own (a batch's writes, say), each located at its
     * own line. Their arguments must be read too, as this case's are.
     */
    public List<TestCase> inputAsCommands() {
        if (inputCommands.isEmpty()) {
            for (int i = 0; i < inputLines.size(); i++) {
                int at = firstInputLine + i;
                inputCommands.add(new TestCase(fileName, at, inputLines.get(i).strip(), List.of(), at + 1, ""));
            }
        }
        return List.copyOf(inputCommands);
    }

    /** The arguments without a key, in order. */
    public List<String> words() {
        wordsRead = true;
        return parsed.words();
    }

    /** The only word, which must be there. */
    public String word() {
        List<String> words = words();
        if (words.size() != 1) {
            throw bad(command() + " takes one word (a name), got " + words);
        }
        return words.getFirst();
    }

    public boolean has(String key) {
        read.add(key);
        return parsed.args().containsKey(key);
    }

    /** The value of {@code key=}, which must be given. */
    public String get(String key) {
        if (!has(key)) {
            throw bad(command() + " needs " + key + "=");
        }
        List<String> values = parsed.args().get(key);
        if (values.size() != 1) {
            throw bad(key + "= takes one value, got (" + String.join(", ", values) + ")");
        }
        return values.getFirst();
    }

    public String get(String key, String fallback) {
        return has(key) ? get(key) : fallback;
    }

    /** The items of {@code key=(a, b)}; a single value is a list of one. */
    public List<String> list(String key) {
        if (!has(key)) {
            throw bad(command() + " needs " + key + "=");
        }
        return parsed.args().get(key);
    }

    public List<String> list(String key, List<String> fallback) {
        return has(key) ? list(key) : fallback;
    }

    public long getLong(String key) {
        return parseLong(key, get(key));
    }

    public long getLong(String key, long fallback) {
        return has(key) ? getLong(key) : fallback;
    }

    public int getInt(String key, int fallback) {
        long v = getLong(key, fallback);
        if (v != (int) v) {
            throw bad(key + "=" + v + " does not fit an int");
        }
        return (int) v;
    }

    public float getFloat(String key, float fallback) {
        return has(key) ? parseFloat(key, get(key)) : fallback;
    }

    /** The items of {@code key=(1, 0.5, -2)} as floats. */
    public float[] floats(String key) {
        List<String> items = list(key);
        float[] out = new float[items.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = parseFloat(key, items.get(i));
        }
        return out;
    }

    /** A {@link BadTestFileException} at this case, for handlers to throw. */
    public BadTestFileException bad(String problem) {
        return new BadTestFileException(location, problem);
    }

    /** Fails when the handler left an argument unread: it is a typo or a command that ignores it. */
    void requireEveryArgumentRead() {
        List<String> unread = new ArrayList<>();
        if (!wordsRead && !parsed.words().isEmpty()) {
            unread.add(String.join(" ", parsed.words()));
        }
        for (Map.Entry<String, List<String>> e : parsed.args().entrySet()) {
            if (!read.contains(e.getKey())) {
                unread.add(e.getKey() + "=");
            }
        }
        if (!unread.isEmpty()) {
            throw bad(command() + " does not take " + String.join(", ", unread));
        }
        for (TestCase c : inputCommands) {
            c.requireEveryArgumentRead();
        }
    }

    private long parseLong(String key, String value) {
        try {
            return Long.parseLong(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw bad(key + "=" + value + " is not a whole number");
        }
    }

    private float parseFloat(String key, String value) {
        try {
            return Float.parseFloat(value);
        } catch (NumberFormatException e) {
            throw bad(key + "=" + value + " is not a number");
        }
    }

    @Override
    public String toString() {
        return location + ": " + text;
    }
}
