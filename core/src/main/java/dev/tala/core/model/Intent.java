package dev.tala.core.model;

import dev.tala.core.error.InvalidIntentException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One intent: what was meant (the command and its context), how sure the system was, what came
 * of it, where it sits in embedding space, and how it relates to other intents. Immutable;
 * validated when built, so an {@code Intent} instance is always storable.
 */
public final class Intent {
    private final IntentId id;
    private final long timestampNs;
    private final long contextHash;
    private final float confidence;
    private final Status status;
    private final Outcome outcome;
    private final String command;
    /** The command's length in UTF-8, counted once when built (encoders size records by it). */
    private final int commandBytes;
    private final float[] embedding;
    /** Whether {@link #embedding} is an array someone handed over ({@link Builder#adoptEmbedding}). */
    private final boolean embeddingAdopted;
    private final List<Edge> edges;

    private Intent(Builder b, int commandBytes, float[] embedding, List<Edge> edges) {
        this.id = b.id;
        this.timestampNs = b.timestampNs;
        this.contextHash = b.contextHash;
        this.confidence = b.confidence;
        this.status = b.status;
        this.outcome = b.outcome;
        this.command = b.command;
        this.commandBytes = commandBytes;
        this.embedding = embedding;
        this.embeddingAdopted = b.embeddingAdopted;
        this.edges = edges;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this intent's values, for a modified copy. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.timestampNs = timestampNs;
        b.contextHash = contextHash;
        b.confidence = confidence;
        b.status = status;
        b.outcome = outcome;
        b.command = command;
        b.embedding = embedding;
        b.embeddingShared = true;
        b.embeddingAdopted = embeddingAdopted;
        b.edges = edges;
        return b;
    }

    /**
     * Whether this intent's embedding is an array handed over with {@link Builder#adoptEmbedding}
     * (or shared with an intent that had one), which its giver could still change.
     */
    public boolean hasAdoptedEmbedding() {
        return embeddingAdopted;
    }

    /**
     * This intent with an embedding array of its own: itself, unless its embedding was adopted,
     * in which case a copy whose array nobody else holds. A database keeps intents it is given
     * for as long as they are in its memtable; a changed adopted array would change what it
     * had acknowledged (a NaN written into one was flushed into a segment every read then failed on).
     */
    public Intent withOwnEmbedding() {
        return embeddingAdopted ? toBuilder().embedding(embedding).build() : this;
    }

    /** This intent with its status and outcome replaced (what attaching an outcome does). */
    public Intent withOutcome(Status newStatus, Outcome newOutcome) {
        return toBuilder().status(newStatus).outcome(newOutcome).build();
    }

    public IntentId id() {
        return id;
    }

    /** Nanoseconds since the Unix epoch. */
    public long timestampNs() {
        return timestampNs;
    }

    /** A hash of the execution context, any 64 bits (unsigned in JSON). */
    public long contextHash() {
        return contextHash;
    }

    public float confidence() {
        return confidence;
    }

    public Status status() {
        return status;
    }

    /** The outcome, or null while none is attached. */
    public Outcome outcome() {
        return outcome;
    }

    public String command() {
        return command;
    }

    /** The length of {@link #command()} in UTF-8 bytes. */
    public int commandBytes() {
        return commandBytes;
    }

    public int dimension() {
        return embedding.length;
    }

    /** A copy of the embedding. */
    public float[] embedding() {
        return embedding.clone();
    }

    public float embedding(int index) {
        return embedding[index];
    }

    /** The embedding without a copy, as a read-only segment of {@code dimension()} floats. */
    public MemorySegment embeddingView() {
        return MemorySegment.ofArray(embedding).asReadOnly();
    }

    /**
     * Copies the embedding into {@code target} at byte {@code index}, little-endian: one bulk
     * move, with no copy of the array and no segment over it (an encoder's hot path).
     */
    public void copyEmbeddingTo(ByteBuffer target, int index) {
        target.slice(index, Float.BYTES * embedding.length).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(embedding);
    }

    public List<Edge> edges() {
        return edges;
    }

    /**
     * Rejects an intent a database would not store: an embedding without the database's
     * dimension, or a timestamp past {@link IntentLimits#MAX_TIMESTAMP_NS}.
     */
    public void requireWritable(int databaseDimension) {
        if (embedding.length != databaseDimension) {
            throw new InvalidIntentException("embedding", "has " + embedding.length
                    + " values but the database's dimension is " + databaseDimension);
        }
        if (timestampNs > IntentLimits.MAX_TIMESTAMP_NS) {
            throw new InvalidIntentException("timestamp", "must be at most " + IntentLimits.MAX_TIMESTAMP_NS
                    + " nanoseconds since the epoch (time ranges end before Long.MAX_VALUE, so no scan could"
                    + " return it), got " + timestampNs);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Intent that
                && id.equals(that.id)
                && timestampNs == that.timestampNs
                && contextHash == that.contextHash
                && Float.floatToIntBits(confidence) == Float.floatToIntBits(that.confidence)
                && status == that.status
                && Objects.equals(outcome, that.outcome)
                && command.equals(that.command)
                && Arrays.equals(embedding, that.embedding)
                && edges.equals(that.edges);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, timestampNs, contextHash, status, command, Arrays.hashCode(embedding));
    }

    @Override
    public String toString() {
        return "Intent{" + id + ", ts=" + Long.toUnsignedString(timestampNs) + ", status=" + status.label()
                + ", confidence=" + confidence + ", command=\"" + abbreviate(command) + "\", dim="
                + embedding.length + ", edges=" + edges.size() + (outcome == null ? "" : ", " + outcome) + "}";
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    /** Collects fields; {@link #build()} validates them all and names the first that is wrong. */
    public static final class Builder {
        private IntentId id;
        private long timestampNs;
        private long contextHash;
        private float confidence = 1.0f;
        private Status status = Status.PENDING;
        private Outcome outcome;
        private String command = "";
        private float[] embedding;
        private boolean embeddingShared;
        private boolean embeddingAdopted;
        private List<Edge> edges = List.of();

        private Builder() {
        }

        public Builder id(IntentId id) {
            this.id = id;
            return this;
        }

        public Builder timestampNs(long timestampNs) {
            this.timestampNs = timestampNs;
            return this;
        }

        public Builder contextHash(long contextHash) {
            this.contextHash = contextHash;
            return this;
        }

        public Builder confidence(float confidence) {
            this.confidence = confidence;
            return this;
        }

        public Builder status(Status status) {
            this.status = status;
            return this;
        }

        public Builder outcome(Outcome outcome) {
            this.outcome = outcome;
            return this;
        }

        public Builder command(String command) {
            this.command = command;
            return this;
        }

        /** The embedding; copied at {@link #build()}. */
        public Builder embedding(float[] embedding) {
            this.embedding = embedding;
            this.embeddingShared = false;
            this.embeddingAdopted = false;
            return this;
        }

        /**
         * The embedding, handed over without a copy: the caller made {@code embedding} for this
         * intent alone (a decoder, say) and must not touch it again. It is still validated at
         * {@link #build()}. Saves a copy of every vector a segment or log read decodes. A
         * database given such an intent to write copies the array first
         * ({@link Intent#withOwnEmbedding}), so a change after the write cannot reach what it holds.
         */
        public Builder adoptEmbedding(float[] embedding) {
            this.embedding = embedding;
            this.embeddingShared = true;
            this.embeddingAdopted = true;
            return this;
        }

        public Builder edges(List<Edge> edges) {
            this.edges = edges;
            return this;
        }

        public Builder addEdge(IntentId target, Relation relation, float weight) {
            List<Edge> next = new ArrayList<>(edges);
            next.add(new Edge(target, relation, weight));
            this.edges = next;
            return this;
        }

        public Intent build() {
            if (id == null) {
                throw new InvalidIntentException("id", "is missing");
            }
            if (timestampNs < 0) {
                throw new InvalidIntentException("timestamp", "must be >= 0 nanoseconds since the epoch, got "
                        + timestampNs);
            }
            if (!(confidence >= 0.0f && confidence <= 1.0f)) {
                throw new InvalidIntentException("confidence", "must be within [0, 1], got " + confidence);
            }
            if (status == null) {
                throw new InvalidIntentException("status", "is missing");
            }
            if (command == null) {
                throw new InvalidIntentException("command", "is missing");
            }
            int commandBytes = IntentLimits.commandBytes(command);
            if (commandBytes > IntentLimits.MAX_COMMAND_BYTES) {
                throw new InvalidIntentException("command", "is " + commandBytes
                        + " bytes of UTF-8, the limit is " + IntentLimits.MAX_COMMAND_BYTES);
            }
            if (embedding == null) {
                throw new InvalidIntentException("embedding", "is missing");
            }
            if (embedding.length == 0 || embedding.length > IntentLimits.MAX_DIMENSION) {
                throw new InvalidIntentException("embedding", "must have 1 to " + IntentLimits.MAX_DIMENSION
                        + " values, got " + embedding.length);
            }
            for (int i = 0; i < embedding.length; i++) {
                if (!Float.isFinite(embedding[i])) {
                    throw new InvalidIntentException("embedding", "value " + i + " is " + embedding[i]
                            + "; every value must be a finite number");
                }
            }
            if (edges == null) {
                throw new InvalidIntentException("edges", "is missing");
            }
            if (edges.size() > IntentLimits.MAX_EDGES) {
                throw new InvalidIntentException("edges", "has " + edges.size() + " edges, the limit is "
                        + IntentLimits.MAX_EDGES);
            }
            for (Edge e : edges) {
                if (e == null) {
                    throw new InvalidIntentException("edges", "contains a null edge");
                }
            }
            float[] frozen = embeddingShared ? embedding : embedding.clone();
            return new Intent(this, commandBytes, frozen, List.copyOf(edges));
        }
    }
}
