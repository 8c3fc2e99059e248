package dev.tala.cli.output;

/**
 * An error message made safe for one line of a terminal: the values it quotes come from input
 * (a JSON string, a field name, an argument) and may hold line breaks, which split the one-line
 * error a script reads, or escape sequences, which a terminal would act on. Control characters
 * are written as Java escapes instead.
 */
public final class OneLine {
    private OneLine() {
    }

    public static String of(String message) {
        if (message == null || message.codePoints().noneMatch(Character::isISOControl)) {
            return message;
        }
        StringBuilder out = new StringBuilder(message.length() + 16);
        message.codePoints().forEach(c -> {
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (Character.isISOControl(c)) {
                        out.append(String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.toString();
    }
}
