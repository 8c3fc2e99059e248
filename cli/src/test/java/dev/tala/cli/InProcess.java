package dev.tala.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs {@code tala} commands in the test's JVM, with stdout and stderr captured: quicker than
 * {@link CliSubprocessTest}'s child processes, for what does not need one.
 */
final class InProcess {
    private InProcess() {
    }

    /** One command's exit code and output. */
    record Run(int exit, String out, String err) {
    }

    /** Runs one command; one at a time, since stdout and stderr are the process's. */
    static synchronized Run tala(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            int exit = TalaCli.run(args);
            return new Run(exit, stdout.toString(StandardCharsets.UTF_8), stderr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
