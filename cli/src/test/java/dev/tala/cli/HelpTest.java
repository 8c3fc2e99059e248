package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's --help ends with an example of itself (docs/CLI.md shows the same). */
class HelpTest {
    @Test
    void everyCommandHasAnExampleInItsHelp() {
        Map<String, CommandLine> commands = new CommandLine(new TalaCli()).getSubcommands();
        assertTrue(commands.size() >= 16, "commands: " + commands.keySet());
        for (Map.Entry<String, CommandLine> c : commands.entrySet()) {
            if (c.getKey().equals("help")) {
                continue;
            }
            String usage = c.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF);
            assertTrue(usage.contains("Example"), c.getKey() + " has an example:\n" + usage);
            assertTrue(usage.contains("tala " + c.getKey()), c.getKey() + "'s example runs it:\n" + usage);
        }
    }

    /**
     * An example is one command an operator copies: help wraps at 80 columns, and a wrapped
     * example (scan's and search's were) pastes as two commands. One that needs two lines
     * continues with a backslash.
     */
    @Test
    void everyExampleIsOneCommandAsPrinted() {
        for (Map.Entry<String, CommandLine> c : new CommandLine(new TalaCli()).getSubcommands().entrySet()) {
            List<String> lines = c.getValue().getUsageMessage(CommandLine.Help.Ansi.OFF).lines().toList();
            int example = Math.max(lines.indexOf("Example:"), lines.indexOf("Examples:"));
            for (int i = example + 1; example >= 0 && i < lines.size(); i++) {
                String line = lines.get(i);
                boolean continues = i + 1 < lines.size() && !lines.get(i + 1).isBlank()
                        && !lines.get(i + 1).startsWith("  tala ");
                assertTrue(!continues || line.endsWith(" \\"),
                        c.getKey() + "'s example goes on to the next line without a backslash: '" + line + "'");
            }
        }
    }
}
