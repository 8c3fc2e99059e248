package dev.tala.cli.command;

import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.cli.output.IntentText;
import dev.tala.core.error.TalaException;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.engine.TalaDB;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "get", description = "Show one intent.",
        footer = {"", "Example:", "  tala get --db ./tala-data 0190a6f2-7c1e-7a3b-9f00-0123456789ab --json"})
public final class GetCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Parameters(index = "0", paramLabel = "ID", description = "The intent's UUID.")
    String id;

    @Override
    public Integer call() {
        IntentId intentId = IntentId.parse(id);
        try (TalaDB db = common.openReadOnly()) {
            Intent intent = db.get(intentId).orElseThrow(() -> new TalaException("no intent " + intentId));
            if (common.json()) {
                System.out.println(JsonLinesWriter.toLine(intent));
            } else {
                IntentText.fields(intent).print(System.out);
            }
        }
        return 0;
    }
}
