package dev.tala.cli.json;

import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Status;

/** One parsed and validated line: what to do to which intent. */
public sealed interface IntentLine {
    /** The intent the line is about. */
    IntentId id();

    /** {@code "op":"put"} (the default): insert or replace the whole intent. */
    record Put(Intent intent) implements IntentLine {
        @Override
        public IntentId id() {
            return intent.id();
        }
    }

    /** {@code "op":"delete"}: remove the intent. */
    record Delete(IntentId id) implements IntentLine {
    }

    /**
     * {@code "op":"outcome"}: set the status of an existing intent and its outcome, which is null
     * when the line gives neither {@code latency_ns} nor {@code exit_code}.
     */
    record AttachOutcome(IntentId id, Status status, Outcome outcome) implements IntentLine {
    }
}
