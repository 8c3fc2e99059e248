package dev.tala.engine.view;

/**
 * A view pinned together with the sequence number it is read at: everything written at or
 * below {@code sequence} is in the view, and nothing above it is visible through it.
 */
public record PinnedView(ReadView view, long sequence) implements AutoCloseable {
    @Override
    public void close() {
        view.release();
    }
}
