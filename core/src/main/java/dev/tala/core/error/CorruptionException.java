package dev.tala.core.error;

/**
 * Stored bytes are not what was written: a checksum mismatch, an offset outside the file, a
 * truncated record. Always names the file and the byte offset where the damage was found.
 */
public class CorruptionException extends TalaException {
    private final String file;
    private final long offset;
    private final String what;

    public CorruptionException(String file, long offset, String what) {
        this(file, offset, what, null);
    }

    public CorruptionException(String file, long offset, String what, Throwable cause) {
        super(file + " at offset " + offset + ": " + what, cause);
        this.file = file;
        this.offset = offset;
        this.what = what;
    }

    public String file() {
        return file;
    }

    public long offset() {
        return offset;
    }

    /** The problem without the location, e.g. "header checksum mismatch". */
    public String what() {
        return what;
    }
}
