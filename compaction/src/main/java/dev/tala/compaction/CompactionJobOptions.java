package dev.tala.compaction;

import dev.tala.segment.EmbeddingType;

/**
 * How a compaction writes its outputs.
 *
 * @param outputType        the embedding encoding of the outputs; may differ from the inputs'
 *                          (e.g. int8 for a cold level), the vectors are re-encoded
 * @param targetOutputBytes an output is closed when the next row would take it past this
 *                          (estimated) size; also the job's memory bound
 * @param bytesPerSecond    write rate limit, {@link CompactionDefaults#UNLIMITED_BYTES_PER_SECOND} for none
 * @param sync              whether outputs are forced; a database always does, benchmarks may not
 * @param moves             whether inputs that need no rewriting are moved instead ({@link SegmentMove})
 */
public record CompactionJobOptions(EmbeddingType outputType, long targetOutputBytes, long bytesPerSecond,
                                   boolean sync, boolean moves) {
    public CompactionJobOptions {
        if (outputType == null) {
            throw new IllegalArgumentException("outputType is null");
        }
        if (targetOutputBytes <= 0) {
            throw new IllegalArgumentException("targetOutputBytes must be positive, got " + targetOutputBytes);
        }
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("bytesPerSecond must be >= 0 (0 = unlimited), got " + bytesPerSecond);
        }
    }

    /** Outputs of the default target size, unthrottled, forced; moves allowed. */
    public static CompactionJobOptions defaults(EmbeddingType outputType) {
        return new CompactionJobOptions(outputType, CompactionDefaults.TARGET_OUTPUT_BYTES,
                CompactionDefaults.UNLIMITED_BYTES_PER_SECOND, true, true);
    }

    public CompactionJobOptions withOutputType(EmbeddingType value) {
        return new CompactionJobOptions(value, targetOutputBytes, bytesPerSecond, sync, moves);
    }

    public CompactionJobOptions withTargetOutputBytes(long value) {
        return new CompactionJobOptions(outputType, value, bytesPerSecond, sync, moves);
    }

    public CompactionJobOptions withBytesPerSecond(long value) {
        return new CompactionJobOptions(outputType, targetOutputBytes, value, sync, moves);
    }

    public CompactionJobOptions withSync(boolean value) {
        return new CompactionJobOptions(outputType, targetOutputBytes, bytesPerSecond, value, moves);
    }

    public CompactionJobOptions withMoves(boolean value) {
        return new CompactionJobOptions(outputType, targetOutputBytes, bytesPerSecond, sync, value);
    }
}
