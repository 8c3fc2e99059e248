package dev.tala.core.testing.datadriven;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A case's first line split into its parts: {@code command word "quoted words" key=value
 * key="quoted value" key=(a, b, c)}. Words and values are separated by spaces; a quoted string
 * may hold spaces and the escapes {@code \"} and {@code \\}; a list in parentheses is split at
 * its commas and each item trimmed, so items cannot hold commas or parentheses.
 */
record CommandLine(String command, List<String> words, Map<String, List<String>> args) {

    static CommandLine parse(String text, String location) {
        return new Tokenizer(text, location).commandLine();
    }

    private static final class Tokenizer {
        private final String text;
        private final String location;
        private int pos;

        Tokenizer(String text, String location) {
            this.text = text;
            this.location = location;
        }

        CommandLine commandLine() {
            skipSpaces();
            String command = bare();
            if (command.isEmpty() || command.contains("=")) {
                throw error("a case starts with a command word, got \"" + text.strip() + "\"");
            }
            List<String> words = new ArrayList<>();
            Map<String, List<String>> args = new LinkedHashMap<>();
            skipSpaces();
            while (pos < text.length()) {
                if (peek() == '"') {
                    words.add(quoted());
                } else {
                    String key = keyOrWord();
                    if (pos < text.length() && peek() == '=') {
                        pos++;
                        if (key.isEmpty()) {
                            throw error("an argument has a value but no key");
                        }
                        if (args.put(key, value()) != null) {
                            throw error("the argument " + key + "= is given twice");
                        }
                    } else {
                        words.add(key);
                    }
                }
                if (pos < text.length() && !Character.isWhitespace(peek())) {
                    throw error("expected a space after an argument at column " + (pos + 1));
                }
                skipSpaces();
            }
            return new CommandLine(command, List.copyOf(words), args);
        }

        private List<String> value() {
            if (pos < text.length() && peek() == '(') {
                return list();
            }
            if (pos < text.length() && peek() == '"') {
                return List.of(quoted());
            }
            return List.of(bare());
        }

        private List<String> list() {
            int close = text.indexOf(')', pos);
            if (close < 0) {
                throw error("a list opened at column " + (pos + 1) + " has no closing parenthesis");
            }
            String inside = text.substring(pos + 1, close);
            pos = close + 1;
            if (inside.contains("(")) {
                throw error("lists cannot nest: (" + inside + ")");
            }
            List<String> items = new ArrayList<>();
            if (!inside.isBlank()) {
                for (String item : inside.split(",", -1)) {
                    items.add(item.strip());
                }
            }
            return List.copyOf(items);
        }

        private String quoted() {
            int open = pos;
            pos++;
            StringBuilder sb = new StringBuilder();
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    if (pos == text.length() || (peek() != '"' && peek() != '\\')) {
                        throw error("only \\\" and \\\\ may follow a backslash in a quoted string");
                    }
                    c = text.charAt(pos++);
                }
                sb.append(c);
            }
            throw error("a quoted string opened at column " + (open + 1) + " is not closed");
        }

        /** Up to a space or '=': a key, or a word when no '=' follows. */
        private String keyOrWord() {
            int start = pos;
            while (pos < text.length() && !Character.isWhitespace(peek()) && peek() != '=') {
                pos++;
            }
            return text.substring(start, pos);
        }

        private String bare() {
            int start = pos;
            while (pos < text.length() && !Character.isWhitespace(peek())) {
                pos++;
            }
            return text.substring(start, pos);
        }

        private char peek() {
            return text.charAt(pos);
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(peek())) {
                pos++;
            }
        }

        private BadTestFileException error(String problem) {
            return new BadTestFileException(location, problem);
        }
    }
}
