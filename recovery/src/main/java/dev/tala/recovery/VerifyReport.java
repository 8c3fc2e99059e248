package dev.tala.recovery;

import java.util.List;

/** What {@code verify} found: every problem with its file and offset, and how much it read. */
public record VerifyReport(List<Problem> problems, int filesChecked, long bytesChecked) {
    /** One piece of damage. */
    public record Problem(String file, long offset, String what) {
        @Override
        public String toString() {
            return file + " at offset " + offset + ": " + what;
        }
    }

    public boolean isClean() {
        return problems.isEmpty();
    }
}
