package dev.tala.cli;

import dev.tala.cli.command.BenchCommand;
import dev.tala.cli.command.CompactCommand;
import dev.tala.cli.command.CrashtestCommand;
import dev.tala.cli.command.DemoCommand;
import dev.tala.cli.command.ExportCommand;
import dev.tala.cli.command.GetCommand;
import dev.tala.cli.command.ImportCommand;
import dev.tala.cli.command.InspectCommand;
import dev.tala.cli.command.NeighborsCommand;
import dev.tala.cli.command.ScanCommand;
import dev.tala.cli.command.SearchCommand;
import dev.tala.cli.command.InitCommand;
import dev.tala.cli.command.RecoverCommand;
import dev.tala.cli.command.SegmentsCommand;
import dev.tala.cli.command.StatsCommand;
import dev.tala.cli.command.VerifyCommand;
import dev.tala.cli.output.OneLine;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tala} command: the entry point bin/tala runs. */
@Command(name = "tala", mixinStandardHelpOptions = true, version = "tala 0.1.0",
        description = "TalaDB: an embedded, crash-safe LSM database for intents.",
        footer = {"", "Every command but inspect takes --db DIR (default ./tala-data) and --json; run 'tala help COMMAND' for its options."},
        subcommands = {
            CommandLine.HelpCommand.class,
            DemoCommand.class,
            InitCommand.class,
            ImportCommand.class,
            ExportCommand.class,
            GetCommand.class,
            ScanCommand.class,
            SearchCommand.class,
            NeighborsCommand.class,
            StatsCommand.class,
            SegmentsCommand.class,
            CompactCommand.class,
            VerifyCommand.class,
            InspectCommand.class,
            RecoverCommand.class,
            CrashtestCommand.class,
            BenchCommand.class,
        })
public final class TalaCli implements Runnable {
    /** Exit status when a command fails at run time (usage errors exit 2, picocli's default). */
    public static final int EXIT_FAILURE = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        RecordingStdout stdout = RecordingStdout.install();
        int exit = run(args);
        System.out.flush();
        IOException lost = stdout.failure();
        if (lost != null && exit == 0) {
            String command = commandName(args);
            System.err.println(command + ": cannot write the output: " + OneLine.of(lost.getMessage()));
            exit = EXIT_FAILURE;
        }
        System.exit(exit);
    }

    /** How a one-line error names the command: {@code tala import}, or {@code tala} before one is given. */
    private static String commandName(String[] args) {
        return args.length > 0 && !args[0].startsWith("-") ? "tala " + args[0] : "tala";
    }

    /** Runs the command line and returns the exit status (tests call this in process). */
    public static int run(String... args) {
        boolean verbose = Arrays.asList(args).contains("--verbose");
        CommandLine cli = new CommandLine(new TalaCli());
        // picocli would read any '@FILE' argument whole into memory as more arguments (a large
        // one ran the CLI out of heap); tala documents no such syntax, so '@' is an ordinary character.
        cli.setExpandAtFiles(false);
        // 'tala COMMAND --help' works as well as 'tala help COMMAND'.
        for (CommandLine sub : cli.getSubcommands().values()) {
            if (sub.getCommandSpec().findOption("--help") == null) {
                sub.getCommandSpec().addOption(CommandLine.Model.OptionSpec.builder("-h", "--help")
                        .usageHelp(true).description("Show this help message and exit.").build());
            }
        }
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("tala " + commandLine.getCommandName() + ": " + OneLine.of(describe(e)));
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return EXIT_FAILURE;
        });
        // A mistyped command line gets one line too, not the whole usage text.
        cli.setParameterExceptionHandler((e, badArgs) -> {
            CommandLine where = e.getCommandLine();
            PrintWriter err = where.getErr();
            String name = where.getCommandSpec().qualifiedName();
            String reordered = where == cli ? optionsAfterCommand(cli, badArgs) : null;
            if (reordered != null && !reordered.equals("tala " + String.join(" ", badArgs))) {
                err.println(name + ": options go after the command name: " + OneLine.of(reordered));
            } else {
                err.println(name + ": " + OneLine.of(e.getMessage()) + " (see '" + name + " --help')");
            }
            err.flush();
            return where.getCommandSpec().exitCodeOnInvalidInput();
        });
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            // picocli hands only exceptions to the handler above; an Error escaped as the JVM's
            // own stack trace ("Exception in thread main ..."), many lines, not the one promised.
            String command = commandName(args);
            PrintWriter err = cli.getErr();
            err.println(command + ": out of memory (" + OneLine.of(String.valueOf(e.getMessage())) + ", a heap of "
                    + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB); give the JVM more heap"
                    + " (JAVA_TOOL_OPTIONS=-Xmx...), or ask for fewer results");
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return EXIT_FAILURE;
        }
    }

    /**
     * {@code tala --db d stats} as {@code tala stats --db d}, when the arguments name a command
     * after options meant for it (picocli reads those as unknown options of {@code tala} itself);
     * null when no command is named.
     */
    static String optionsAfterCommand(CommandLine cli, String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (cli.getSubcommands().containsKey(args[i])) {
                List<String> line = new ArrayList<>();
                line.add("tala");
                line.add(args[i]);
                line.addAll(Arrays.asList(args).subList(0, i));
                line.addAll(Arrays.asList(args).subList(i + 1, args.length));
                return String.join(" ", line);
            }
        }
        return null;
    }

    /** One line a person can act on; internal errors say so and point at --verbose. */
    static String describe(Throwable e) {
        if (e instanceof TalaException || e instanceof IllegalArgumentException) {
            return e.getMessage();
        }
        if (e instanceof java.io.IOException ioe) {
            return "I/O error: " + StorageException.describe(ioe);
        }
        return "internal error: " + e + " (rerun with --verbose for the stack trace)";
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
