package dev.tala.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tala} command: the entry point bin/tala runs. */
@Command(name = "tala", mixinStandardHelpOptions = true, version = "tala 0.1.0",
        description = "TalaDB: an embedded, crash-safe LSM database for intents.",
        subcommands = {CommandLine.HelpCommand.class})
public final class TalaCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TalaCli()).execute(args));
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
