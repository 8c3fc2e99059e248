package dev.tala.cli.output;

/** Whether output goes to a person at a terminal (progress bars) or to a pipe or file (none). */
public final class Terminal {
    private Terminal() {
    }

    public static boolean isInteractive() {
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }
}
