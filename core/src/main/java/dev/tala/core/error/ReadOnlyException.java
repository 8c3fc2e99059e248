package dev.tala.core.error;

/**
 * A change was asked of a database opened read-only (a write, flush or compaction), or a
 * read-only open reached a step that would have changed a file. Nothing was changed.
 */
public final class ReadOnlyException extends TalaException {
    public ReadOnlyException(String message) {
        super(message);
    }
}
