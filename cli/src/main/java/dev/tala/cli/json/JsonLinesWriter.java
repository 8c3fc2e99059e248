package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tala.core.model.Intent;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes JSON lines: each call writes one object and a {@code '\n'}. Strings are escaped by
 * Jackson (quotes, backslashes and control characters, so a command never breaks a line);
 * non-ASCII text is written as UTF-8. {@link #close()} flushes but does not close the target,
 * which is often standard output.
 */
public final class JsonLinesWriter implements Closeable, Flushable {
    private final JsonGenerator generator;

    /** Writes UTF-8 to {@code out}. */
    public JsonLinesWriter(OutputStream out) throws IOException {
        this(JsonFactories.WRITE.createGenerator(out, JsonEncoding.UTF8));
    }

    public JsonLinesWriter(Writer out) throws IOException {
        this(JsonFactories.WRITE.createGenerator(out));
    }

    private JsonLinesWriter(JsonGenerator generator) {
        this.generator = generator;
        // Lines are separated by our own '\n', not Jackson's default space between root values.
        generator.setRootValueSeparator(null);
    }

    /** One intent as a put line, as {@code tala export} writes it. */
    public void writeIntent(Intent intent) throws IOException {
        IntentJson.write(generator, intent, false, 0f);
        endLine();
    }

    /** One intent as a put line followed by {@code "score"} (a search result); NaN is written as null. */
    public void writeIntent(Intent intent, float score) throws IOException {
        IntentJson.write(generator, intent, true, score);
        endLine();
    }

    /** {@code {"from":...,"to":...,"relation":...,"weight":...,"depth":...}} */
    public void writeNeighbor(NeighborRow row) throws IOException {
        JsonGenerator g = generator;
        g.writeStartObject();
        g.writeStringField("from", row.from().toString());
        g.writeStringField("to", row.to().toString());
        g.writeStringField("relation", row.relation().label());
        g.writeFieldName("weight");
        IntentJson.writeFloat(g, row.weight());
        g.writeNumberField("depth", row.depth());
        g.writeEndObject();
        endLine();
    }

    /** The put line of an intent, without the line terminator. */
    public static String toLine(Intent intent) {
        StringWriter out = new StringWriter(64 + intent.dimension() * 12);
        try (JsonLinesWriter writer = new JsonLinesWriter(out)) {
            writer.writeIntent(intent);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.getBuffer().substring(0, out.getBuffer().length() - 1);
    }

    private void endLine() throws IOException {
        generator.writeRaw('\n');
    }

    @Override
    public void flush() throws IOException {
        generator.flush();
    }

    @Override
    public void close() throws IOException {
        generator.close();
    }
}
