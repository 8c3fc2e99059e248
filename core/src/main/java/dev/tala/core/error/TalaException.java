package dev.tala.core.error;

/**
 * Root of every error TalaDB raises on purpose. Unchecked, like the rest of the API, so that a
 * caller catches exactly the subtype it can act on.
 */
public class TalaException extends RuntimeException {
    public TalaException(String message) {
        super(message);
    }

    public TalaException(String message, Throwable cause) {
        super(message, cause);
    }
}
