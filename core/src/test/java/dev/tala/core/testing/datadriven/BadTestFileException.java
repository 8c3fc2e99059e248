package dev.tala.core.testing.datadriven;

/**
 * A test file that cannot be run as written: a case without its {@code ----} line, an argument
 * that is not a number, an argument no handler read. Always names the file and line, and is
 * never taken for output: a handler that prints the errors of the code under test lets this one
 * through, so a typo in a file fails the test instead of being accepted by a rewrite.
 */
public final class BadTestFileException extends RuntimeException {
    public BadTestFileException(String location, String problem) {
        super(location + ": " + problem);
    }
}
