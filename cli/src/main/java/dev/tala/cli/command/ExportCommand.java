package dev.tala.cli.command;

import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.cli.output.StdoutGone;
import dev.tala.engine.Snapshot;
import dev.tala.engine.TalaDB;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "export", description = "Write every live intent as JSON lines, in id order, from a consistent snapshot.",
        footer = {"", "Example:", "  tala export --db ./tala-data > intents.jsonl"})
public final class ExportCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Override
    public Integer call() throws IOException {
        BufferedOutputStream out = new BufferedOutputStream(System.out, 1 << 16);
        try (TalaDB db = common.openReadOnly(); Snapshot snapshot = db.snapshot();
             JsonLinesWriter writer = new JsonLinesWriter(out)) {
            snapshot.forEachIntent(intent -> {
                if (StdoutGone.check()) {
                    // Nobody reads the rest ('export | head -1' went on through the whole database).
                    throw new OutputGone();
                }
                try {
                    writer.writeIntent(intent);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (OutputGone e) {
            return 0; // TalaCli.main tells a reader that left (exit 0) from a full disk (exit 1)
        }
        out.flush();
        return 0;
    }

    /** Ends the walk over the intents once the output cannot be written. */
    private static final class OutputGone extends RuntimeException {
        OutputGone() {
            super(null, null, false, false);
        }
    }
}
