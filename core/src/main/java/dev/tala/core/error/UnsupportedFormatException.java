package dev.tala.core.error;

/** A well-formed file this version cannot read: a newer major version, or an encrypted segment. */
public final class UnsupportedFormatException extends TalaException {
    private final String file;

    public UnsupportedFormatException(String file, String reason) {
        super(file + ": " + reason);
        this.file = file;
    }

    public String file() {
        return file;
    }
}
