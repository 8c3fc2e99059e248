package dev.tala.tests;

import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Outcome;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The oracle's value encoding: an intent as plain DataOutput fields. Deliberately unrelated to
 * TalaDB's own codecs, so the two sides of a differential test share no serialization code.
 */
final class IntentBytes {
    private IntentBytes() {
    }

    static byte[] key(IntentId id) {
        return id.toBytes();
    }

    static byte[] encode(Intent i) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(i.id().toBytes());
            out.writeLong(i.timestampNs());
            out.writeLong(i.contextHash());
            out.writeFloat(i.confidence());
            out.writeUTF(i.status().name());
            out.writeBoolean(i.outcome() != null);
            if (i.outcome() != null) {
                out.writeLong(i.outcome().latencyNs());
                out.writeInt(i.outcome().exitCode());
            }
            byte[] command = i.command().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeInt(command.length);
            out.write(command);
            out.writeInt(i.dimension());
            for (float f : i.embedding()) {
                out.writeFloat(f);
            }
            out.writeInt(i.edges().size());
            for (Edge e : i.edges()) {
                out.write(e.target().toBytes());
                out.writeUTF(e.relation().name());
                out.writeFloat(e.weight());
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Intent decode(byte[] value) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(value));
            Intent.Builder b = Intent.builder().id(IntentId.fromBytes(in.readNBytes(16)))
                    .timestampNs(in.readLong()).contextHash(in.readLong()).confidence(in.readFloat())
                    .status(Status.valueOf(in.readUTF()));
            if (in.readBoolean()) {
                b.outcome(new Outcome(in.readLong(), in.readInt()));
            }
            b.command(new String(in.readNBytes(in.readInt()), java.nio.charset.StandardCharsets.UTF_8));
            float[] v = new float[in.readInt()];
            for (int k = 0; k < v.length; k++) {
                v[k] = in.readFloat();
            }
            b.embedding(v);
            int edges = in.readInt();
            List<Edge> list = new ArrayList<>();
            for (int k = 0; k < edges; k++) {
                list.add(new Edge(IntentId.fromBytes(in.readNBytes(16)), Relation.valueOf(in.readUTF()), in.readFloat()));
            }
            return b.edges(list).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
