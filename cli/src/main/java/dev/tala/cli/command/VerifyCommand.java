package dev.tala.cli.command;

import dev.tala.cli.output.Counts;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.StorageException;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.engine.open.StoredOptions;
import dev.tala.recovery.DatabaseVerifier;
import dev.tala.recovery.VerifyReport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "verify", description = "Check every checksum of every live file (read-only). Exit 0 when clean, 1 when not.",
        footer = {"", "Example:", "  tala verify --db ./tala-data"})
public final class VerifyCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    @Override
    public Integer call() {
        DatabaseLayout layout = new DatabaseLayout(common.dir());
        common.requireDatabaseFile(layout.optionsFile());
        VerifyReport report = withOptionsChecked(layout);
        if (common.json()) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("clean", report.isClean());
            out.put("files_checked", report.filesChecked());
            out.put("bytes_checked", report.bytesChecked());
            out.put("problems", report.problems());
            System.out.println(Json.line(out));
        } else if (report.isClean()) {
            System.out.printf("clean: %s, %,d bytes checked%n", Counts.of(report.filesChecked(), "file"),
                    report.bytesChecked());
        } else {
            Table t = new Table("file", "offset", "problem");
            for (VerifyReport.Problem p : report.problems()) {
                t.row(p.file(), p.offset(), p.what());
            }
            t.print(System.out);
            System.out.printf("%s in %s checked%n", Counts.of(report.problems().size(), "problem"),
                    Counts.of(report.filesChecked(), "file"));
        }
        return report.isClean() ? 0 : 1;
    }

    /**
     * Verifies the files against the dimension OPTIONS gives. OPTIONS has no checksum, but a
     * value an open refuses is damage all the same; a changed dimension shows as every segment
     * disagreeing with it.
     */
    private static VerifyReport withOptionsChecked(DatabaseLayout layout) {
        OptionalInt dimension = OptionalInt.empty();
        VerifyReport.Problem refused = null;
        try {
            dimension = OptionalInt.of(StoredOptions.read(LocalFileLayer.INSTANCE, layout.optionsFile()).dimension());
        } catch (CorruptionException e) {
            refused = new VerifyReport.Problem(e.file(), e.offset(), e.what());
        } catch (IOException e) {
            throw new StorageException("cannot read " + layout.optionsFile(), e);
        }
        VerifyReport report = DatabaseVerifier.verify(LocalFileLayer.INSTANCE, layout, dimension);
        List<VerifyReport.Problem> problems = new ArrayList<>(report.problems());
        if (refused != null) {
            problems.addFirst(refused);
        }
        return new VerifyReport(problems, report.filesChecked() + 1, report.bytesChecked());
    }
}
