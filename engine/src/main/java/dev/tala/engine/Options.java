package dev.tala.engine;

import dev.tala.compaction.CompactionPolicy;
import dev.tala.compaction.TieredPolicy;
import dev.tala.core.io.FileLayer;
import dev.tala.core.io.LocalFileLayer;
import dev.tala.core.model.IntentLimits;
import dev.tala.segment.EmbeddingType;
import dev.tala.wal.Durability;
import dev.tala.wal.WalRecoveryMode;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How to open a database. Dimension and embedding type are fixed when the database is created
 * (written to DIR/OPTIONS); opening an existing database with a different dimension or type is
 * an error. Memtable size and durability are also recorded at creation and used when not given;
 * when given they apply to this open only. Everything else applies to this open only.
 */
public final class Options {
    public static final int DEFAULT_DIMENSION = 384;
    public static final long DEFAULT_MEMTABLE_BYTES = 64L * 1024 * 1024;
    public static final int DEFAULT_WAL_RECYCLE_FILES = 0;
    public static final int MAX_WAL_RECYCLE_FILES = 16;

    /** The smallest memtable a database accepts. */
    public static final long MIN_MEMTABLE_BYTES = 4096;
    /**
     * The largest: a flush writes one memtable as one segment, whose command strings must fit
     * one 2 GiB string table; half of that leaves room for the batch that fills the memtable.
     */
    public static final long MAX_MEMTABLE_BYTES = 1L << 30;
    /**
     * The largest compaction output size, for the memtable's reason: an output's commands must
     * fit one 2 GiB string table, and the output is built in memory. A larger target let a
     * compaction of a few GiB of commands fail only once it had read them all (a full compact()
     * threw; a background one ran out of heap and failed the database).
     */
    public static final long MAX_TARGET_SEGMENT_BYTES = MAX_MEMTABLE_BYTES;
    /** The smallest MANIFEST rewrite size (1 rewrites it at every open, which crash tests use). */
    public static final long MIN_MANIFEST_REWRITE_BYTES = 1;

    /** Returns {@code dim} if it is a valid embedding dimension, else throws. */
    public static int checkDimension(int dim) {
        if (dim < 1 || dim > IntentLimits.MAX_DIMENSION) {
            throw new IllegalArgumentException("dimension must be 1 to " + IntentLimits.MAX_DIMENSION + ", got " + dim);
        }
        return dim;
    }

    /** Returns {@code bytes} if it is a valid memtable size, else throws. */
    public static long checkMemtableBytes(long bytes) {
        if (bytes < MIN_MEMTABLE_BYTES || bytes > MAX_MEMTABLE_BYTES) {
            throw new IllegalArgumentException("memtable size must be " + MIN_MEMTABLE_BYTES + " to "
                    + MAX_MEMTABLE_BYTES + " bytes, got " + bytes);
        }
        return bytes;
    }

    /** Returns {@code n} if it is a valid {@code walRecycleFiles} setting, else throws. */
    public static int checkWalRecycleFiles(int n) {
        if (n < 0 || n > MAX_WAL_RECYCLE_FILES) {
            throw new IllegalArgumentException("WAL files to recycle must be 0 to " + MAX_WAL_RECYCLE_FILES
                    + ", got " + n);
        }
        return n;
    }

    private final OptionalInt dimension;
    private final Optional<EmbeddingType> embeddingType;
    private final OptionalLong memtableBytes;
    private final Optional<Durability> durability;
    private final int maxImmutableMemtables;
    private final int walRecycleFiles;
    private final WalRecoveryMode recoveryMode;
    private final boolean createIfMissing;
    private final FileLayer fileLayer;
    private final long manifestRewriteBytes;
    private final CompactionPolicy compactionPolicy;
    private final boolean backgroundCompaction;
    private final boolean compactionMoves;
    private final long compactionBytesPerSecond;
    private final long targetSegmentBytes;
    private final int level0StallSegments;
    private final Optional<EmbeddingType> coldEmbeddingType;
    private final int coldLevel;

    private Options(Builder b) {
        this.dimension = b.dimension;
        this.embeddingType = b.embeddingType;
        this.memtableBytes = b.memtableBytes;
        this.durability = b.durability;
        this.maxImmutableMemtables = b.maxImmutableMemtables;
        this.walRecycleFiles = b.walRecycleFiles;
        this.recoveryMode = b.recoveryMode;
        this.createIfMissing = b.createIfMissing;
        this.fileLayer = b.fileLayer;
        this.manifestRewriteBytes = b.manifestRewriteBytes;
        this.compactionPolicy = b.compactionPolicy;
        this.backgroundCompaction = b.backgroundCompaction;
        this.compactionMoves = b.compactionMoves;
        this.compactionBytesPerSecond = b.compactionBytesPerSecond;
        this.targetSegmentBytes = b.targetSegmentBytes;
        this.level0StallSegments = b.level0StallSegments;
        this.coldEmbeddingType = b.coldEmbeddingType;
        this.coldLevel = b.coldLevel;
    }

    public static Options defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder with this object's settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.dimension = dimension;
        b.embeddingType = embeddingType;
        b.memtableBytes = memtableBytes;
        b.durability = durability;
        b.maxImmutableMemtables = maxImmutableMemtables;
        b.walRecycleFiles = walRecycleFiles;
        b.recoveryMode = recoveryMode;
        b.createIfMissing = createIfMissing;
        b.fileLayer = fileLayer;
        b.manifestRewriteBytes = manifestRewriteBytes;
        b.compactionPolicy = compactionPolicy;
        b.backgroundCompaction = backgroundCompaction;
        b.compactionMoves = compactionMoves;
        b.compactionBytesPerSecond = compactionBytesPerSecond;
        b.targetSegmentBytes = targetSegmentBytes;
        b.level0StallSegments = level0StallSegments;
        b.coldEmbeddingType = coldEmbeddingType;
        b.coldLevel = coldLevel;
        return b;
    }

    public OptionalInt dimension() {
        return dimension;
    }

    public Optional<EmbeddingType> embeddingType() {
        return embeddingType;
    }

    public OptionalLong memtableBytes() {
        return memtableBytes;
    }

    public Optional<Durability> durability() {
        return durability;
    }

    public int maxImmutableMemtables() {
        return maxImmutableMemtables;
    }

    public int walRecycleFiles() {
        return walRecycleFiles;
    }

    public WalRecoveryMode recoveryMode() {
        return recoveryMode;
    }

    public boolean createIfMissing() {
        return createIfMissing;
    }

    public FileLayer fileLayer() {
        return fileLayer;
    }

    public long manifestRewriteBytes() {
        return manifestRewriteBytes;
    }

    public CompactionPolicy compactionPolicy() {
        return compactionPolicy;
    }

    public boolean backgroundCompaction() {
        return backgroundCompaction;
    }

    public boolean compactionMoves() {
        return compactionMoves;
    }

    public long compactionBytesPerSecond() {
        return compactionBytesPerSecond;
    }

    public long targetSegmentBytes() {
        return targetSegmentBytes;
    }

    public int level0StallSegments() {
        return level0StallSegments;
    }

    public Optional<EmbeddingType> coldEmbeddingType() {
        return coldEmbeddingType;
    }

    public int coldLevel() {
        return coldLevel;
    }

    public static final class Builder {
        private OptionalInt dimension = OptionalInt.empty();
        private Optional<EmbeddingType> embeddingType = Optional.empty();
        private OptionalLong memtableBytes = OptionalLong.empty();
        private Optional<Durability> durability = Optional.empty();
        private int maxImmutableMemtables = 2;
        private int walRecycleFiles = DEFAULT_WAL_RECYCLE_FILES;
        private WalRecoveryMode recoveryMode = WalRecoveryMode.TOLERATE_CORRUPTED_TAIL;
        private boolean createIfMissing = true;
        private FileLayer fileLayer = LocalFileLayer.INSTANCE;
        private long manifestRewriteBytes = 4L * 1024 * 1024;
        private CompactionPolicy compactionPolicy = TieredPolicy.withDefaults();
        private boolean backgroundCompaction = true;
        private boolean compactionMoves = true;
        private long compactionBytesPerSecond;
        private long targetSegmentBytes = 64L * 1024 * 1024;
        private int level0StallSegments = 48;
        private Optional<EmbeddingType> coldEmbeddingType = Optional.empty();
        private int coldLevel = 2;

        private Builder() {
        }

        /** The embedding dimension (default 384 for a new database). */
        public Builder dimension(int dim) {
            this.dimension = OptionalInt.of(checkDimension(dim));
            return this;
        }

        /** How embeddings are stored in segments (default f32 for a new database). */
        public Builder embeddingType(EmbeddingType type) {
            this.embeddingType = Optional.of(Objects.requireNonNull(type, "embeddingType"));
            return this;
        }

        /** The memtable size at which it is frozen and flushed (default 64 MiB, at most 1 GiB). */
        public Builder memtableBytes(long bytes) {
            this.memtableBytes = OptionalLong.of(checkMemtableBytes(bytes));
            return this;
        }

        /** When writes are acknowledged relative to the disk (default SYNC for a new database). */
        public Builder durability(Durability d) {
            this.durability = Optional.of(Objects.requireNonNull(d, "durability"));
            return this;
        }

        /** Frozen memtables allowed to wait for a flush before writers stall (default 2). */
        public Builder maxImmutableMemtables(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxImmutableMemtables must be at least 1 (frozen memtables waiting for a"
                        + " flush), got " + n);
            }
            this.maxImmutableMemtables = n;
            return this;
        }

        /**
         * Finished WAL files kept, zero-filled, for reuse instead of being deleted (default
         * {@value #DEFAULT_WAL_RECYCLE_FILES}; 0 turns reuse off). A reused file is overwritten in place, which
         * makes appends and forces cheaper than growing a new file, at the cost of writing each
         * retired file's length in zeros once, in the background (see docs/RECOVERY.md), and of
         * the spare files' space while the database is closed. With 16 SYNC writers, reuse of 2
         * files gave 44–48k puts/s against 31–33k (docs/PERFORMANCE.md, stop 24).
         */
        public Builder walRecycleFiles(int n) {
            this.walRecycleFiles = checkWalRecycleFiles(n);
            return this;
        }

        /** What WAL damage open tolerates (default: a torn tail). */
        public Builder recoveryMode(WalRecoveryMode mode) {
            this.recoveryMode = Objects.requireNonNull(mode, "recoveryMode");
            return this;
        }

        /** Whether open creates the database when the directory holds none (default true). */
        public Builder createIfMissing(boolean create) {
            this.createIfMissing = create;
            return this;
        }

        /** The file layer every file access goes through (tests pass a fault-injecting one). */
        public Builder fileLayer(FileLayer layer) {
            this.fileLayer = Objects.requireNonNull(layer, "fileLayer");
            return this;
        }

        /** Rewrite the MANIFEST as a snapshot once it grows past this size. */
        public Builder manifestRewriteBytes(long bytes) {
            if (bytes < MIN_MANIFEST_REWRITE_BYTES) {
                throw new IllegalArgumentException("the MANIFEST rewrite size must be at least "
                        + MIN_MANIFEST_REWRITE_BYTES + " bytes, got " + bytes);
            }
            this.manifestRewriteBytes = bytes;
            return this;
        }

        /** Which runs of segments to merge, and when (default: size-tiered, see docs/COMPACTION.md). */
        public Builder compactionPolicy(CompactionPolicy policy) {
            this.compactionPolicy = Objects.requireNonNull(policy, "compactionPolicy");
            return this;
        }

        /** Whether a background thread compacts after flushes (default true). */
        public Builder backgroundCompaction(boolean enabled) {
            this.backgroundCompaction = enabled;
            return this;
        }

        /**
         * Whether a compaction whose inputs share no id, and need no rewriting, keeps them as they
         * are and only records them as one run at the new level (the default), instead of
         * rewriting them. docs/COMPACTION.md, "Moves".
         */
        public Builder compactionMoves(boolean enabled) {
            this.compactionMoves = enabled;
            return this;
        }

        /** Caps the bytes per second compaction writes; 0 means no cap (the default). */
        public Builder compactionBytesPerSecond(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("compactionBytesPerSecond must be >= 0 (0: no cap), got " + bytes);
            }
            this.compactionBytesPerSecond = bytes;
            return this;
        }

        /**
         * The size at which a compaction starts its next output segment (default 64 MiB, at most
         * 1 GiB); bounds its memory.
         */
        public Builder targetSegmentBytes(long bytes) {
            if (bytes < 4096) {
                throw new IllegalArgumentException("targetSegmentBytes must be at least 4096, got " + bytes);
            }
            if (bytes > MAX_TARGET_SEGMENT_BYTES) {
                throw new IllegalArgumentException("targetSegmentBytes must be at most " + MAX_TARGET_SEGMENT_BYTES
                        + " (an output's commands must fit one 2 GiB string table), got " + bytes);
            }
            this.targetSegmentBytes = bytes;
            return this;
        }

        /**
         * Writers stall while more than this many flushed, uncompacted segments exist (default 48)
         * and the compaction policy has a compaction to run that could reduce them.
         */
        public Builder level0StallSegments(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("level0StallSegments must be at least 1, got " + n);
            }
            this.level0StallSegments = n;
            return this;
        }

        /**
         * Compaction outputs at {@code fromLevel} or deeper store embeddings as {@code type}
         * (e.g. int8 for cold data); search ranks them with that precision. Unlike the
         * database's own type, this conversion happens late: an intent reads back its floats
         * as put until a compaction writes it to such a level, and that type's approximation
         * after. The setting belongs to the open, not to OPTIONS: an open without it leaves
         * cold segments as they are, and a merge of them stores their (already approximated)
         * floats in the database's type. An outcome update writes a new version of the intent,
         * which starts again in the database's type (see {@link TalaDB#attachOutcome}).
         */
        public Builder coldEmbeddingType(EmbeddingType type, int fromLevel) {
            if (fromLevel < 1) {
                throw new IllegalArgumentException("the cold level must be 1 or deeper (level 0 holds flushes), got "
                        + fromLevel);
            }
            this.coldEmbeddingType = Optional.of(Objects.requireNonNull(type, "coldEmbeddingType"));
            this.coldLevel = fromLevel;
            return this;
        }

        /**
         * @throws IllegalArgumentException if a cold embedding type starts deeper than the
         *     compaction policy ever writes, where it would silently never apply
         */
        public Options build() {
            if (coldEmbeddingType.isPresent() && coldLevel > compactionPolicy.maxLevel()) {
                throw new IllegalArgumentException("coldEmbeddingType from level " + coldLevel + " would never apply:"
                        + " the compaction policy's deepest level is " + compactionPolicy.maxLevel());
            }
            return new Options(this);
        }
    }
}
