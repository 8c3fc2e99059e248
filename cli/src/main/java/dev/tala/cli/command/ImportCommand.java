package dev.tala.cli.command;

import dev.tala.cli.json.IntentLine;
import dev.tala.cli.json.IntentLineParser;
import dev.tala.cli.output.Counts;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Progress;
import dev.tala.core.error.InvalidIntentException;
import dev.tala.core.error.TalaException;
import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.engine.WriteBatch;
import dev.tala.wal.Durability;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "import", header = "Load intents from JSON lines (one put, delete or outcome per line).", description = {
    "Every line is validated; at the first bad one the import stops with FILE:LINE: reason, keeping what came before. The format is the one export writes, described in docs/CLI.md."},
        footer = {"", "Examples:", "  tala import --db ./tala-data intents.jsonl", "  tala export --db a | tala import --db b -"})
public final class ImportCommand implements Callable<Integer> {
    private static final int BATCH = 512;

    @Mixin
    DbOptions common;

    @Parameters(index = "0", paramLabel = "FILE|-", description = "The file to read, or - for standard input.")
    String source;

    private long puts;
    private long deletes;
    private long outcomes;

    @Override
    public Integer call() throws IOException {
        String name = source.equals("-") ? "<stdin>" : source;
        long size = source.equals("-") ? -1 : fileSize(Path.of(source));
        // Bulk loading: write to the OS as lines arrive, and make it all durable with one flush at the end.
        try (TalaDB db = common.openExisting(Options.builder().durability(Durability.none()));
             CountingStream counted = new CountingStream(source.equals("-") ? System.in : Files.newInputStream(Path.of(source)))) {
            Utf8LineReader in = new Utf8LineReader(counted, MAX_LINE_BYTES);
            IntentLineParser parser = new IntentLineParser(db.dimension());
            Progress progress = Progress.unlessJson(common.json(), "importing", size, "B");
            List<Integer> lineNumbers = new ArrayList<>();
            List<IntentLine> pending = new ArrayList<>();
            int lineNumber = 0;
            try {
                for (String line = readLine(in, name, lineNumber); line != null; line = readLine(in, name, lineNumber)) {
                    lineNumber++;
                    if (lineNumber == 1 && line.startsWith(BYTE_ORDER_MARK)) {
                        line = line.substring(1); // written by some Windows tools; JSON allows ignoring it
                    }
                    if (line.isBlank()) {
                        continue;
                    }
                    IntentLine parsed;
                    try {
                        parsed = parser.parse(line);
                    } catch (TalaException e) {
                        write(db, pending, lineNumbers, name);
                        throw new TalaException(name + ":" + lineNumber + ": " + e.getMessage());
                    }
                    pending.add(parsed);
                    lineNumbers.add(lineNumber);
                    if (pending.size() == BATCH) {
                        write(db, pending, lineNumbers, name);
                        progress.update(counted.count);
                    }
                }
                write(db, pending, lineNumbers, name);
            } catch (UnreadableLineException e) {
                write(db, pending, lineNumbers, name); // the lines before it are imported, as for any bad line
                throw e;
            } finally {
                progress.update(counted.count); // the last batch is shorter than BATCH
                progress.finish();
                db.flush();
            }
            long total = puts + deletes + outcomes;
            double seconds = progress.elapsedSeconds();
            if (common.json()) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("imported", total);
                out.put("puts", puts);
                out.put("deletes", deletes);
                out.put("outcomes", outcomes);
                out.put("seconds", Math.round(seconds * 1000) / 1000.0);
                out.put("lines_per_second", Math.round(total / Math.max(seconds, 1e-9)));
                System.out.println(Json.line(out));
            } else {
                System.out.printf("imported %s (%s, %s, %s) in %.2f s, %,.0f lines/s%n", Counts.of(total, "line"),
                        Counts.of(puts, "put"), Counts.of(deletes, "delete"), Counts.of(outcomes, "outcome"), seconds,
                        total / Math.max(seconds, 1e-9));
            }
        }
        return 0;
    }

    private static final String BYTE_ORDER_MARK = "\uFEFF";

    /**
     * No valid line comes near this: the longest (65,536 floats, a 64 KiB command escaped, 1,024
     * edges) is a few megabytes. A longer one is refused before it is held in memory whole.
     */
    static final int MAX_LINE_BYTES = 16 << 20;

    /** The next line; bytes that are not UTF-8, or too many of them, are an error naming the line. */
    private static String readLine(Utf8LineReader in, String name, int linesRead) throws IOException {
        try {
            return in.readLine();
        } catch (CharacterCodingException e) {
            throw new UnreadableLineException(name + ":" + (linesRead + 1) + ": " + (e instanceof Utf8LineReader.NotUtf8Exception
                    ? e.getMessage() : "not valid UTF-8 (" + e.getMessage() + ")"));
        } catch (Utf8LineReader.LineTooLongException e) {
            throw new UnreadableLineException(name + ":" + (linesRead + 1) + ": " + e.getMessage()
                    + "; no intent line is that long");
        }
    }

    private static final class UnreadableLineException extends TalaException {
        UnreadableLineException(String message) {
            super(message);
        }
    }

    /** Writes the pending lines as one batch; if an outcome names an unknown id, finds its line. */
    private void write(TalaDB db, List<IntentLine> pending, List<Integer> lineNumbers, String name) {
        if (pending.isEmpty()) {
            return;
        }
        try {
            db.write(batchOf(pending));
            count(pending);
        } catch (InvalidIntentException e) {
            // The batch was refused whole: replay it line by line to apply what is good and name what is not.
            for (int i = 0; i < pending.size(); i++) {
                try {
                    db.write(batchOf(List.of(pending.get(i))));
                    count(List.of(pending.get(i)));
                } catch (InvalidIntentException bad) {
                    throw new TalaException(name + ":" + lineNumbers.get(i) + ": " + bad.getMessage());
                }
            }
        }
        pending.clear();
        lineNumbers.clear();
    }

    private static WriteBatch batchOf(List<IntentLine> lines) {
        WriteBatch batch = new WriteBatch();
        for (IntentLine l : lines) {
            switch (l) {
                case IntentLine.Put p -> batch.put(p.intent());
                case IntentLine.Delete d -> batch.delete(d.id());
                case IntentLine.AttachOutcome o -> batch.attachOutcome(o.id(), o.status(), o.outcome());
            }
        }
        return batch;
    }

    private void count(List<IntentLine> lines) {
        for (IntentLine l : lines) {
            switch (l) {
                case IntentLine.Put p -> puts++;
                case IntentLine.Delete d -> deletes++;
                case IntentLine.AttachOutcome o -> outcomes++;
            }
        }
    }

    private static long fileSize(Path p) throws IOException {
        if (Files.isDirectory(p)) {
            throw new TalaException(p + " is a directory, not a file of JSON lines");
        }
        try {
            return Files.size(p);
        } catch (NoSuchFileException e) {
            throw new TalaException("no such file: " + p);
        }
    }

    /** Counts bytes read, for the progress bar. */
    private static final class CountingStream extends FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
