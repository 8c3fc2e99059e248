package dev.tala.core.testing.datadriven;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed test file: its lines as read, and its cases with where each one's output block
 * starts and ends, so that a rewrite can replace the blocks and keep every other line (comments,
 * commands, input, blank lines) byte for byte.
 */
final class TestFile {
    /** The separator line; doubled, it opens and closes an output that holds blank lines. */
    static final String SEPARATOR = "----";

    /**
     * A case and its output block: lines {@code [blockStart, blockEnd)} are the separator(s), the
     * output, and a closing pair if the output is doubled.
     */
    record Block(TestCase testCase, int blockStart, int blockEnd) {
    }

    private final List<String> lines;
    private final List<Block> blocks;

    TestFile(List<String> lines, List<Block> blocks) {
        this.lines = List.copyOf(lines);
        this.blocks = List.copyOf(blocks);
    }

    List<TestCase> cases() {
        return blocks.stream().map(Block::testCase).toList();
    }

    /** The file with case {@code i}'s output replaced by {@code outputs.get(i)}. */
    String render(List<String> outputs) {
        if (outputs.size() != blocks.size()) {
            throw new IllegalArgumentException(outputs.size() + " outputs for " + blocks.size() + " cases");
        }
        List<String> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < blocks.size(); i++) {
            Block b = blocks.get(i);
            out.addAll(lines.subList(next, b.blockStart()));
            out.addAll(outputBlock(b.testCase(), outputs.get(i)));
            next = b.blockEnd();
        }
        out.addAll(lines.subList(next, lines.size()));
        return out.isEmpty() ? "" : String.join("\n", out) + "\n";
    }

    /**
     * The lines that hold {@code output}: one separator and the output, or, when the output holds
     * a blank line (which would end it) or starts with a separator (which would read as the
     * doubled form), the output between doubled separators.
     */
    static List<String> outputBlock(TestCase c, String output) {
        List<String> block = new ArrayList<>();
        block.add(SEPARATOR);
        if (output.isEmpty()) {
            return block;
        }
        List<String> outputLines = List.of(output.substring(0, output.length() - 1).split("\n", -1));
        boolean doubled = outputLines.getFirst().equals(SEPARATOR) || outputLines.stream().anyMatch(String::isBlank);
        if (!doubled) {
            block.addAll(outputLines);
            return block;
        }
        for (int i = 0; i + 1 < outputLines.size(); i++) {
            if (outputLines.get(i).equals(SEPARATOR) && outputLines.get(i + 1).equals(SEPARATOR)) {
                throw c.bad("the output holds two " + SEPARATOR + " lines in a row, which no block can hold");
            }
        }
        block.add(SEPARATOR);
        block.addAll(outputLines);
        block.add(SEPARATOR);
        block.add(SEPARATOR);
        return block;
    }
}
