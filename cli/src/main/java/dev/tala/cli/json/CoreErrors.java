package dev.tala.cli.json;

import dev.tala.core.error.InvalidIntentException;

/**
 * Turns core's validation errors into line errors. Core names fields by their place in an
 * intent; in a line the same value may sit elsewhere (an edge's relation is
 * {@code edges[3].relation}), so the caller may give the JSON path to report instead.
 */
final class CoreErrors {
    private CoreErrors() {
    }

    static LineFormatException translate(InvalidIntentException e) {
        return translate(e, e.field());
    }

    static LineFormatException translate(InvalidIntentException e, String jsonField) {
        return new LineFormatException(jsonField, reasonOf(e));
    }

    /** Core's message is {@code "field: reason"}; only the reason is kept. */
    static String reasonOf(InvalidIntentException e) {
        String message = e.getMessage();
        String prefix = e.field() + ": ";
        return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }
}
