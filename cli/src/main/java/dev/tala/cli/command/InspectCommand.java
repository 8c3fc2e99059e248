package dev.tala.cli.command;

import dev.tala.cli.output.IntentText;
import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.segment.Footer;
import dev.tala.segment.RegionEntry;
import dev.tala.segment.SegmentHeader;
import dev.tala.segment.SegmentInfo;
import dev.tala.segment.SegmentOpenOption;
import dev.tala.segment.SegmentReader;
import dev.tala.segment.format.RegionKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "inspect", header = "Show and check one TBF segment file (no database is opened).", description = {
    "Show a TBF segment file: header fields, flags, regions with offsets and sizes, counts and footer, then check every checksum. On a damaged file it shows what it can and says what is wrong (exit 1). Reads only the file; no database is opened."},
        footer = {"", "Example:", "  tala inspect ./tala-data/segments/00000000000000000007.tbf"})
public final class InspectCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE.tbf", description = "The segment file.")
    Path file;

    @Option(names = "--json", description = "Print machine-readable JSON.")
    boolean json;

    @Option(names = "--verbose", description = "On error, print the stack trace too.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        FileLayer fs = LocalFileLayer.INSTANCE;
        if (Files.isDirectory(file)) {
            throw new TalaException(file + " is a directory; inspect reads one segment file (FILE.tbf)");
        }
        if (Files.notExists(file)) {
            throw new TalaException("no such file: " + file);
        }
        if (!Files.exists(file)) {
            // The lookup failed (permission, a link loop): this throws the system's reason.
            Files.readAttributes(file, BasicFileAttributes.class);
        }
        if (!Files.isRegularFile(file)) {
            throw new TalaException(file + " is not a regular file (a device, a pipe or a socket); inspect reads"
                    + " one segment file (FILE.tbf)");
        }
        // The header must at least decode; otherwise this is not a segment and one line says why.
        SegmentHeader header = SegmentReader.readHeader(fs, file);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", file.toString());
        out.put("file_size", Files.size(file));
        out.put("header", headerFields(header));
        List<String> problems = new ArrayList<>();
        SegmentInfo info = null;
        // The same keys whether or not the footer can be read, so that scripts need no special case.
        out.put("footer", null);
        out.put("regions", List.of());
        try {
            info = SegmentReader.readSummary(fs, file, SegmentOpenOption.ALLOW_PARTIAL);
            out.put("footer", footerFields(info.footer()));
            out.put("regions", regions(info.regions()));
        } catch (TalaException e) {
            problems.add(e.getMessage());
        }
        if (info != null) {
            try (SegmentReader reader = SegmentReader.open(fs, file, SegmentOpenOption.ALLOW_PARTIAL)) {
                for (CorruptionException e : reader.verifyAll()) {
                    problems.add(e.getMessage());
                }
            } catch (TalaException e) {
                problems.add(e.getMessage());
            }
        }
        if (header.isPartial()) {
            problems.add(file + ": is_partial is set: the segment was never completed (recovery deletes such files)");
        }
        out.put("problems", problems);
        if (json) {
            System.out.println(Json.line(out));
        } else {
            print(out, problems);
        }
        return problems.isEmpty() ? 0 : 1;
    }

    private static Map<String, Object> headerFields(SegmentHeader h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", h.versionMajor() + "." + h.versionMinor());
        m.put("segment_id", h.segmentId());
        m.put("created_at", IntentText.time(h.createdAtNs()));
        m.put("node_count", h.nodeCount());
        m.put("edge_count", h.edgeCount());
        m.put("embedding_dim", h.embeddingDim());
        m.put("embedding_dtype", h.embeddingType().label());
        m.put("compression", h.compression() == 2 ? "zstd (string table)" : h.compression() == 0 ? "none" : "code " + h.compression());
        List<String> flags = new ArrayList<>();
        if (h.hasOutcomes()) {
            flags.add("has_outcomes");
        }
        if (h.hasEmbeddings()) {
            flags.add("has_embeddings");
        }
        if (h.isCompacted()) {
            flags.add("is_compacted");
        }
        if (h.isEncrypted()) {
            flags.add("is_encrypted");
        }
        if (h.isPartial()) {
            flags.add("is_partial");
        }
        m.put("flags", flags);
        m.put("node_region_offset", h.nodeRegionOffset());
        m.put("embed_region_offset", h.embedRegionOffset());
        m.put("edge_region_offset", h.edgeRegionOffset());
        m.put("string_table_offset", h.stringTableOffset());
        m.put("bloom_offset", h.bloomOffset());
        m.put("index_offset", h.indexOffset());
        m.put("footer_offset", h.footerOffset());
        return m;
    }

    private static Map<String, Object> footerFields(Footer f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("min_timestamp", Long.toUnsignedString(f.minTimestamp()));
        m.put("max_timestamp", Long.toUnsignedString(f.maxTimestamp()));
        m.put("min_sequence", f.minSequence());
        m.put("max_sequence", f.maxSequence());
        m.put("puts", f.putCount());
        m.put("tombstones", f.tombstoneCount());
        m.put("foreign_ids", f.foreignIdCount());
        m.put("reverse_edges", f.hasReverseEdges());
        return m;
    }

    private static List<Map<String, Object>> regions(List<RegionEntry> entries) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RegionEntry e : entries) {
            Map<String, Object> m = new LinkedHashMap<>();
            RegionKind kind = e.knownKind();
            m.put("region", kind == null ? "unknown kind " + e.kind() : kind.label());
            m.put("offset", e.offset());
            m.put("stored_bytes", e.storedLength());
            m.put("raw_bytes", e.rawLength());
            m.put("elements", e.elementCount());
            m.put("encoding", e.encoding() == 2 ? "zstd" : "raw");
            m.put("crc32c", String.format("%08x", e.crc()));
            out.add(m);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void print(Map<String, Object> out, List<String> problems) {
        System.out.println(out.get("file") + " (" + String.format("%,d", (Long) out.get("file_size")) + " bytes)");
        System.out.println();
        Table header = Table.fields();
        ((Map<String, Object>) out.get("header")).forEach((k, v) -> header.row(k, v instanceof List<?> l ? String.join(", ", (List<String>) l) : v));
        header.print(System.out);
        if (out.get("footer") != null) {
            System.out.println();
            Table footer = Table.fields();
            ((Map<String, Object>) out.get("footer")).forEach(footer::row);
            footer.print(System.out);
            System.out.println();
            Table regions = new Table("region", "offset", "stored bytes", "raw bytes", "elements", "encoding", "crc32c");
            for (Map<String, Object> r : (List<Map<String, Object>>) out.get("regions")) {
                regions.row(r.get("region"), r.get("offset"), r.get("stored_bytes"), r.get("raw_bytes"), r.get("elements"),
                        r.get("encoding"), r.get("crc32c"));
            }
            regions.print(System.out);
        }
        System.out.println();
        if (problems.isEmpty()) {
            System.out.println("every checksum verified: the segment is sound");
        } else {
            System.out.println(problems.size() + " problem" + (problems.size() == 1 ? "" : "s") + ":");
            problems.forEach(p -> System.out.println("  " + p));
        }
    }
}
