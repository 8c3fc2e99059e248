package dev.tala.engine.view;

import dev.tala.core.error.LoggedErrors;
import dev.tala.segment.SegmentMeta;
import dev.tala.segment.SegmentReader;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live segment shared by read views. Reference-counted: the live set holds one reference and
 * every view that lists the segment holds one; the mapping is closed (and, for a compaction
 * input, the file deleted) only when the last reference goes, so no reader ever touches an
 * unmapped segment. A moved segment gets a new handle with new metadata over the same mapping
 * ({@link #relabeled}); the references of both count together.
 */
public final class SegmentHandle {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentHandle.class);

    private final SegmentMeta meta;
    private final Mapping mapping;

    public SegmentHandle(SegmentReader reader, SegmentMeta meta) {
        this(meta, new Mapping(reader));
    }

    private SegmentHandle(SegmentMeta meta, Mapping mapping) {
        this.meta = meta;
        this.mapping = mapping;
    }

    /**
     * The same mapped file under {@code newMeta}, holding one reference of its own (the live
     * set's), as a new handle does. The file is unmapped, and its cleanup run, only once this
     * handle's references and the new one's are all released: a view that still lists the old
     * handle keeps the file even after a later compaction removes the new one.
     */
    public SegmentHandle relabeled(SegmentMeta newMeta) {
        if (newMeta.id() != meta.id()) {
            throw new IllegalArgumentException("segment " + meta.id() + " cannot be relabeled as segment "
                    + newMeta.id());
        }
        mapping.retain(meta.id());
        return new SegmentHandle(newMeta, mapping);
    }

    public SegmentReader reader() {
        return mapping.reader;
    }

    public SegmentMeta meta() {
        return meta;
    }

    public long id() {
        return meta.id();
    }

    /** The metadata of each handle, in the same order. */
    public static List<SegmentMeta> metas(List<SegmentHandle> segments) {
        return segments.stream().map(SegmentHandle::meta).toList();
    }

    void retain() {
        mapping.retain(meta.id());
    }

    /** What to do once the segment is unmapped, e.g. delete an obsolete compaction input. */
    public void whenUnused(Runnable action) {
        mapping.onLastRelease = action;
    }

    public void release() {
        mapping.release(meta.id());
    }

    @Override
    public String toString() {
        return "segment " + meta.id() + " (level " + meta.level() + ", seq " + meta.minSequence() + ".."
                + meta.maxSequence() + ")";
    }

    /** The mapped file and the references to it, shared by every handle of one segment file. */
    private static final class Mapping {
        final SegmentReader reader;
        final AtomicInteger refs = new AtomicInteger(1);
        volatile Runnable onLastRelease = () -> { };

        Mapping(SegmentReader reader) {
            this.reader = reader;
        }

        void retain(long id) {
            int before = refs.getAndIncrement();
            if (before <= 0) {
                throw new IllegalStateException("segment " + id + " retained after its last release");
            }
        }

        void release(long id) {
            int left = refs.decrementAndGet();
            if (left == 0) {
                reader.close();
                try {
                    onLastRelease.run();
                } catch (RuntimeException e) {
                    LOG.warn("cleanup of segment {} failed: {}", id, LoggedErrors.describe(e), LoggedErrors.traceOf(e));
                }
            } else if (left < 0) {
                throw new IllegalStateException("segment " + id + " released too often");
            }
        }
    }
}
