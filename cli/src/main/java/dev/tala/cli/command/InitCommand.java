package dev.tala.cli.command;

import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.core.error.TalaException;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.open.StoredOptions;
import dev.tala.wal.Durability;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "init", description = "Create an empty database.",
        footer = {"", "Example:", "  tala init --db ./tala-data --dim 384 --dtype f32"})
public final class InitCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Option(names = "--dim", defaultValue = "384", description = "Embedding dimension (default: ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "--dtype", defaultValue = "f32", description = "How segments store embeddings: f32, f16, bf16 or int8 (default: ${DEFAULT-VALUE}).")
    String dtype;

    @Option(names = "--memtable-kb", defaultValue = "65536", description = "Memtable size in KiB before a flush (default: ${DEFAULT-VALUE}).")
    long memtableKb;

    @Option(names = "--durability", defaultValue = "sync", description = "sync, none or batch:<millis> (default: ${DEFAULT-VALUE}).")
    String durability;

    @Override
    public Integer call() {
        if (Files.exists(new DatabaseLayout(common.dir()).optionsFile())) {
            throw new TalaException("a database already exists in " + common.dir());
        }
        if (memtableKb < Options.MIN_MEMTABLE_BYTES / 1024 || memtableKb > Options.MAX_MEMTABLE_BYTES / 1024) {
            throw new IllegalArgumentException("--memtable-kb must be " + Options.MIN_MEMTABLE_BYTES / 1024 + " to "
                    + Options.MAX_MEMTABLE_BYTES / 1024 + ", got " + memtableKb);
        }
        Options options = Options.builder()
                .dimension(flag("--dim", () -> Options.checkDimension(dim)))
                .embeddingType(StoredOptions.parseType(dtype.toLowerCase(Locale.ROOT), "--dtype")) // as --durability
                .memtableBytes(memtableKb * 1024)
                .durability(flag("--durability", () -> Durability.parse(durability)))
                .build();
        try (TalaDB db = TalaDB.open(common.dir(), options)) {
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("db", db.directory().toString());
            info.put("dimension", db.dimension());
            info.put("dtype", db.embeddingType().label());
            info.put("memtable_bytes", memtableKb * 1024);
            info.put("durability", db.durability().toString());
            if (common.json()) {
                System.out.println(Json.line(info));
            } else {
                System.out.println("created an empty database in " + db.directory());
                Table t = Table.fields();
                info.forEach(t::row);
                t.print(System.out);
            }
        }
        return 0;
    }

    /** {@code check}'s value, or its refusal with the flag named first, as every refusal of init names it. */
    private static <T> T flag(String name, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }
}
