package dev.tala.engine.read;

import dev.tala.core.model.IntentId;
import dev.tala.core.model.IntentVersion;

/**
 * Walks one id-ordered source of versions, one version per id. Cheap questions (id, tombstone)
 * do not decode the intent; {@link #version()} does.
 */
public interface VersionCursor {
    boolean valid();

    IntentId id();

    boolean isTombstone();

    IntentVersion version();

    void advance();
}
