package dev.tala.tests.corruption;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the records of an undamaged WAL file, or the edits of an undamaged MANIFEST, start and
 * end (docs/FORMAT.md). Parsed here independently of the product's readers, to describe where
 * damage landed, to enumerate truncations at entry boundaries, and to map the WAL records a
 * truncation cut away to the writes they held.
 */
record LogLayout(String format, int headerBytes, List<Entry> entries, long size) {
    /** One record or edit occupying [offset, end); {@code firstSequence} is -1 for MANIFEST edits. */
    record Entry(int index, long offset, long end, long firstSequence) {
    }

    private static final int WAL_HEADER = 16;
    private static final int WAL_RECORD_HEADER = 21;
    private static final int MANIFEST_HEADER = 8;
    private static final int MANIFEST_EDIT_HEADER = 12;

    static LogLayout wal(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Entry> entries = new ArrayList<>();
        int offset = WAL_HEADER;
        while (offset < bytes.length) {
            int end = offset + WAL_RECORD_HEADER + in.getInt(offset);
            entries.add(new Entry(entries.size(), offset, end, in.getLong(offset + 5)));
            offset = end;
        }
        return checked("WAL", WAL_HEADER, entries, bytes.length, offset);
    }

    static LogLayout manifest(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Entry> entries = new ArrayList<>();
        int offset = MANIFEST_HEADER;
        while (offset < bytes.length) {
            int end = offset + MANIFEST_EDIT_HEADER + in.getInt(offset);
            entries.add(new Entry(entries.size(), offset, end, -1));
            offset = end;
        }
        return checked("MANIFEST", MANIFEST_HEADER, entries, bytes.length, offset);
    }

    private static LogLayout checked(String format, int header, List<Entry> entries, long size, long end) {
        if (end != size) {
            throw new IllegalStateException("the undamaged " + format + " does not parse: entries end at " + end
                    + " of " + size + " bytes");
        }
        return new LogLayout(format, header, List.copyOf(entries), size);
    }

    /** Lengths at which a truncation leaves only whole entries: after the header, or after any entry. */
    List<Long> boundaries() {
        List<Long> out = new ArrayList<>();
        out.add((long) headerBytes);
        entries.forEach(e -> out.add(e.end()));
        out.remove(Long.valueOf(size)); // not a truncation
        return out;
    }

    boolean isBoundary(long length) {
        return boundaries().contains(length);
    }

    /** Entries that start at or after {@code length}: what a truncation there removes entirely. */
    List<Entry> startingAtOrAfter(long length) {
        return entries.stream().filter(e -> e.offset() >= length).toList();
    }

    /** Where {@code offset} lies: which entry, and whether the last one (a torn-tail candidate). */
    Location locate(long offset) {
        String noun = format.equals("WAL") ? "record" : "edit";
        if (offset < headerBytes) {
            return new Location("file header", "file header byte " + offset);
        }
        for (Entry e : entries) {
            if (offset < e.end()) {
                int headerLength = format.equals("WAL") ? WAL_RECORD_HEADER : MANIFEST_EDIT_HEADER;
                long within = offset - e.offset();
                String part = within < headerLength ? "header" : "payload";
                String which = e.index() == entries.size() - 1 ? "last " : "earlier ";
                String detail = noun + " " + e.index() + " of " + entries.size()
                        + (e.firstSequence() >= 0 ? " (sequence " + e.firstSequence() + ")" : "") + ", " + part + " byte "
                        + (part.equals("header") ? within : within - headerLength);
                return new Location(which + noun + " " + part, detail);
            }
        }
        return new Location("end of file", "at the end of the file");
    }
}
