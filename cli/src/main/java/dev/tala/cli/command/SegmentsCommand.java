package dev.tala.cli.command;

import dev.tala.cli.output.Json;
import dev.tala.cli.output.Table;
import dev.tala.core.error.CorruptionException;
import dev.tala.core.error.StorageException;
import dev.tala.core.error.TalaException;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.layout.DatabaseLayout;
import dev.tala.recovery.DatabaseRecovery;
import dev.tala.recovery.ListedSegmentCheck;
import dev.tala.recovery.manifest.ManifestReader;
import dev.tala.segment.SegmentInfo;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentOpenOption;
import dev.tala.segment.SegmentReader;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "segments", description = "List the live segments (read-only; works while another process has the database open).",
        footer = {"", "Example:", "  tala segments --db ./tala-data --json"})
public final class SegmentsCommand implements Callable<Integer> {
    @Mixin
    DbOptions common;

    /** How often to retry when a compaction in another process removed a segment between reads. */
    private static final int ATTEMPTS = 5;

    @Override
    public Integer call() throws Exception {
        FileLayer fs = LocalFileLayer.INSTANCE;
        DatabaseLayout layout = new DatabaseLayout(common.dir());
        if (creationCutShort(fs, layout)) {
            System.out.println(common.json() ? "[]"
                    : "no segments yet (no MANIFEST: the database's creation was cut short; the next writable open finishes it)");
            return 0;
        }
        common.requireDatabaseFile(layout.manifestFile());
        Listing listing = listSegments(fs, layout);
        List<Map<String, Object>> rows = listing.rows();
        if (listing.manifest().tornTailBytes() > 0) {
            // Not an error of this listing, which shows what an open sees; but a torn edit may be
            // a crash's unfinished one or damage to a finished one, and only verify can tell.
            System.err.println("[WARN] segments: " + layout.manifestFile() + " ends in " + listing.manifest().tornTailBytes()
                    + " bytes from offset " + listing.manifest().validEnd() + " that are not a whole edit; they are ignored,"
                    + " as an open ignores them ('tala verify' tells whether they listed segments that are now missing)");
        }
        List<Map<String, Object>> unreadable = rows.stream().filter(r -> r.containsKey("error")).toList();
        int exit = unreadable.isEmpty() ? 0 : 1;
        if (common.json()) {
            System.out.println(Json.line(rows));
            return exit;
        }
        if (rows.isEmpty()) {
            System.out.println("no segments yet (everything is still in the memtable and the WAL)");
            return 0;
        }
        Table t = new Table("id", "level", "nodes", "bytes", "flags", "min timestamp", "max timestamp", "sequences");
        for (Map<String, Object> r : rows) {
            String flags = r.containsKey("error") ? "UNREADABLE"
                    : ((Boolean) r.get("compacted") ? "compacted" : "flushed") + ((Boolean) r.get("partial") ? ",partial" : "");
            t.row(r.get("id"), r.get("level"), r.get("nodes"), r.get("bytes"), flags, r.get("min_timestamp"),
                    r.get("max_timestamp"), r.get("min_sequence") + ".." + r.get("max_sequence"));
        }
        t.print(System.out);
        for (Map<String, Object> r : unreadable) {
            System.out.println("segment " + r.get("id") + " is unreadable: " + r.get("error"));
        }
        return exit;
    }

    /**
     * Whether the database holds OPTIONS but no MANIFEST and no segment: a creation cut short,
     * as the opens and verify judge it. A MANIFEST missing beside segments is refused as they
     * refuse it.
     */
    private static boolean creationCutShort(FileLayer fs, DatabaseLayout layout) throws IOException {
        if (fs.exists(layout.manifestFile()) || !Files.isRegularFile(layout.optionsFile())
                || !Files.isDirectory(layout.segmentDir())) {
            return false;
        }
        CorruptionException lost = DatabaseRecovery.lostManifest(fs, layout);
        if (lost != null) {
            throw lost;
        }
        return true;
    }

    /**
     * Reads the MANIFEST, then each listed segment's header and footer. This takes no lock, so
     * a process that has the database open may compact meanwhile and delete a listed segment;
     * then the MANIFEST has moved on, and the listing starts again from it. A listed segment
     * that cannot be read is reported.
     */
    private static Listing listSegments(FileLayer fs, DatabaseLayout layout) throws IOException {
        for (int attempt = 1; ; attempt++) {
            List<Map<String, Object>> rows = new ArrayList<>();
            boolean stale = false;
            ManifestReader.Result manifest = ManifestReader.read(fs, layout.manifestFile());
            for (SegmentMeta m : manifest.state().segments().values()) {
                SegmentInfo info;
                try {
                    info = SegmentReader.readSummary(fs, layout.segmentFile(m.id()), SegmentOpenOption.ALLOW_PARTIAL);
                    requireListed(info, layout, m);
                } catch (IOException | TalaException e) {
                    if (attempt < ATTEMPTS && !listed(fs, layout).containsKey(m.id())) {
                        stale = true;
                        break;
                    }
                    // One damaged segment should not hide the others: list it from the MANIFEST.
                    rows.add(unreadableRow(m, e));
                    continue;
                }
                rows.add(row(m, info));
            }
            if (!stale) {
                return new Listing(rows, manifest);
            }
        }
    }

    /**
     * A listed segment every open refuses before it reads a row (a header naming another
     * segment, or a file that is not the one the MANIFEST's entry describes) is not listed as
     * sound: its flags and counts would sit beside the entry's size and ranges, which describe
     * other rows.
     */
    private static void requireListed(SegmentInfo info, DatabaseLayout layout, SegmentMeta listed) {
        CorruptionException refused = ListedSegmentCheck.refusal(layout.manifestFile(), listed, info);
        if (refused != null) {
            throw refused;
        }
    }

    /** The rows of the listed segments, and the MANIFEST read they were listed from. */
    private record Listing(List<Map<String, Object>> rows, ManifestReader.Result manifest) {
    }

    private static Map<Long, SegmentMeta> listed(FileLayer fs, DatabaseLayout layout) throws IOException {
        return ManifestReader.read(fs, layout.manifestFile()).state().segments();
    }

    private static Map<String, Object> row(SegmentMeta m, SegmentInfo info) {
        Map<String, Object> r = manifestRow(m);
        // The file's own range: a moved segment's MANIFEST entry carries the sequence range of
        // the run it was moved with (SegmentMove), which every segment of that run shows alike.
        r.put("min_sequence", info.minSequence());
        r.put("max_sequence", info.maxSequence());
        r.put("partial", info.header().isPartial());
        r.put("compacted", info.header().isCompacted());
        r.put("tombstones", info.tombstoneCount());
        r.put("edges", info.edgeCount());
        r.put("dtype", info.header().embeddingType().label());
        return r;
    }

    /** What the MANIFEST says of a segment whose file could not be read, and why. */
    private static Map<String, Object> unreadableRow(SegmentMeta m, Exception e) {
        Map<String, Object> r = manifestRow(m);
        r.put("partial", false);
        r.put("compacted", m.compacted());
        // The keys of a readable row, unknown here, so that every row has the same shape.
        r.put("tombstones", null);
        r.put("edges", null);
        r.put("dtype", null);
        r.put("error", e instanceof IOException io ? StorageException.describe(io) : e.getMessage());
        return r;
    }

    private static Map<String, Object> manifestRow(SegmentMeta m) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("id", m.id());
        r.put("level", m.level());
        r.put("nodes", m.rows());
        r.put("bytes", m.fileSize());
        r.put("min_timestamp", Long.toUnsignedString(m.minTimestamp()));
        r.put("max_timestamp", Long.toUnsignedString(m.maxTimestamp()));
        r.put("min_sequence", m.minSequence());
        r.put("max_sequence", m.maxSequence());
        return r;
    }
}
