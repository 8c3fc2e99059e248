package dev.tala.cli.command;

import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.engine.DbStats;
import dev.tala.engine.TalaDB;
import java.lang.reflect.RecordComponent;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "stats", description = "Show the database's size, contents and counters.",
        footer = {"", "Example:", "  tala stats --db ./tala-data --json"})
public final class StatsCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Override
    public Integer call() throws Exception {
        try (TalaDB db = common.openReadOnly()) {
            DbStats stats = db.stats();
            if (common.json()) {
                System.out.println(Json.line(stats));
            } else {
                Table t = Table.fields();
                for (RecordComponent c : DbStats.class.getRecordComponents()) {
                    t.row(snake(c.getName()), c.getAccessor().invoke(stats));
                }
                t.print(System.out);
            }
        }
        return 0;
    }

    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
}
