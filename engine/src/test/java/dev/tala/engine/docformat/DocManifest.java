package dev.tala.engine.docformat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/** A MANIFEST decoded from FORMAT.md's grammar alone; checks every checksum on the way. */
record DocManifest(List<List<Field>> edits) {
    record Field(int tag, byte[] value) {
        long u64(int at) {
            return ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
        }
    }

    static int crc32c(byte[] b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b, from, to - from);
        return (int) c.getValue();
    }

    static DocManifest read(Path file) throws Exception {
        byte[] b = Files.readAllBytes(file);
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals("TMAN".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(b, 4), "MANIFEST magic");
        assertEquals(1, le.getShort(4), "MANIFEST version");
        assertEquals(0, le.getShort(6), "MANIFEST reserved");
        List<List<Field>> edits = new ArrayList<>();
        int at = 8;
        while (at < b.length) {
            int length = le.getInt(at);
            assertEquals(crc32c(b, at + 12, at + 12 + length), le.getInt(at + 4), "edit at " + at + ": crc");
            assertEquals(crc32c(b, at, at + 8), le.getInt(at + 8), "edit at " + at + ": header_crc");
            List<Field> fields = new ArrayList<>();
            int p = at + 12;
            while (p < at + 12 + length) {
                int tag = b[p] & 0xFF;
                int len = le.getShort(p + 1) & 0xFFFF;
                fields.add(new Field(tag, Arrays.copyOfRange(b, p + 3, p + 3 + len)));
                p += 3 + len;
            }
            assertEquals(at + 12 + length, p, "edit at " + at + ": fields fill the payload");
            edits.add(fields);
            at = p;
        }
        return new DocManifest(edits);
    }

    static Field only(List<Field> edit, int tag) {
        List<Field> found = edit.stream().filter(f -> f.tag() == tag).toList();
        assertEquals(1, found.size(), "tag " + tag + " in " + describe(edit));
        return found.getFirst();
    }

    static String describe(List<Field> edit) {
        StringBuilder s = new StringBuilder("[");
        for (Field f : edit) {
            s.append(" tag ").append(f.tag()).append(" len ").append(f.value().length);
        }
        return s.append(" ]").toString();
    }
}
