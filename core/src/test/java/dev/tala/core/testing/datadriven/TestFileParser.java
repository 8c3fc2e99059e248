package dev.tala.core.testing.datadriven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads a test file into its cases; the syntax is in {@code package-info.java}. */
final class TestFileParser {
    private final String name;
    private final List<String> lines;
    private final List<TestFile.Block> blocks = new ArrayList<>();
    private int pos;

    private TestFileParser(String name, String text) {
        this.name = name;
        this.lines = text.lines().toList();
    }

    static TestFile parse(Path file) throws IOException {
        return parse(DataDriven.displayName(file), Files.readString(file));
    }

    /** Parses {@code text}; {@code name} is what locations print before the line number. */
    static TestFile parse(String name, String text) {
        TestFileParser p = new TestFileParser(name, text);
        p.parseCases();
        return new TestFile(p.lines, p.blocks);
    }

    private void parseCases() {
        while (pos < lines.size()) {
            String line = lines.get(pos);
            if (line.isBlank() || line.startsWith("#")) {
                pos++;
            } else {
                parseCase();
            }
        }
    }

    private void parseCase() {
        int first = pos;
        String location = location(first);
        // A command line ending in a backslash goes on on the next line; the pieces are joined
        // by one space, whatever the indentation of the continuation.
        List<String> pieces = new ArrayList<>();
        String line = lines.get(pos++);
        while (line.endsWith("\\")) {
            pieces.add(line.substring(0, line.length() - 1).strip());
            if (pos == lines.size()) {
                throw new BadTestFileException(location, "the file ends after a continued command line");
            }
            line = lines.get(pos++);
        }
        pieces.add(line.strip());
        String command = String.join(" ", pieces);
        int firstInput = pos;
        List<String> input = new ArrayList<>();
        while (pos < lines.size() && !lines.get(pos).equals(TestFile.SEPARATOR)) {
            if (lines.get(pos).isBlank()) {
                throw new BadTestFileException(location, "no " + TestFile.SEPARATOR + " line before the blank line "
                        + (pos + 1) + " (each case is a command, input lines, " + TestFile.SEPARATOR + ", its output)");
            }
            input.add(lines.get(pos++));
        }
        if (pos == lines.size()) {
            throw new BadTestFileException(location, "no " + TestFile.SEPARATOR + " line before the end of the file");
        }
        int blockStart = pos++;
        List<String> output = new ArrayList<>();
        if (pos < lines.size() && lines.get(pos).equals(TestFile.SEPARATOR)) {
            pos++;
            readDoubledOutput(location, output);
        } else {
            while (pos < lines.size() && !lines.get(pos).isBlank()) {
                output.add(lines.get(pos++));
            }
        }
        StringBuilder expected = new StringBuilder();
        for (String o : output) {
            expected.append(o).append('\n');
        }
        blocks.add(new TestFile.Block(new TestCase(name, first + 1, command, input, firstInput + 1,
                expected.toString()), blockStart, pos));
    }

    /** The lines up to the closing pair of separators, which must be followed by a blank line or the end. */
    private void readDoubledOutput(String location, List<String> output) {
        while (pos + 1 < lines.size()) {
            if (lines.get(pos).equals(TestFile.SEPARATOR) && lines.get(pos + 1).equals(TestFile.SEPARATOR)) {
                pos += 2;
                if (pos < lines.size() && !lines.get(pos).isBlank()) {
                    throw new BadTestFileException(location(pos), "a blank line must follow the closing "
                            + TestFile.SEPARATOR + " pair");
                }
                return;
            }
            output.add(lines.get(pos++));
        }
        throw new BadTestFileException(location, "the output opened by a doubled " + TestFile.SEPARATOR
                + " is not closed by another pair");
    }

    private String location(int index) {
        return name + ":" + (index + 1);
    }
}
