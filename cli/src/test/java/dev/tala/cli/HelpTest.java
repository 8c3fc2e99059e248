package dev.tala.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
