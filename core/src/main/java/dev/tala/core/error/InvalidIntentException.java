package dev.tala.core.error;

/** Input rejected before anything was written; {@link #field()} names what is wrong. */
public final class InvalidIntentException extends TalaException {
    private final String field;

    public InvalidIntentException(String field, String reason) {
        super(field + ": " + reason);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
