package dev.tala.engine.view;

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
 * unmapped segment.
 */
public final class SegmentHandle {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentHandle.class);

    private final SegmentReader reader;
    private final SegmentMeta meta;
    private final AtomicInteger refs = new AtomicInteger(1);
    private volatile Runnable onLastRelease = () -> { };

    public SegmentHandle(SegmentReader reader, SegmentMeta meta) {
        this.reader = reader;
        this.meta = meta;
    }

    public SegmentReader reader() {
        return reader;
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
        int before = refs.getAndIncrement();
        if (before <= 0) {
            throw new IllegalStateException("segment " + meta.id() + " retained after its last release");
        }
    }

    /** What to do once the segment is unmapped, e.g. delete an obsolete compaction input. */
    public void whenUnused(Runnable action) {
        this.onLastRelease = action;
    }

    public void release() {
        int left = refs.decrementAndGet();
        if (left == 0) {
            reader.close();
            try {
                onLastRelease.run();
            } catch (RuntimeException e) {
                LOG.warn("cleanup of segment {} failed", meta.id(), e);
            }
        } else if (left < 0) {
            throw new IllegalStateException("segment " + meta.id() + " released too often");
        }
    }

    @Override
    public String toString() {
        return "segment " + meta.id() + " (level " + meta.level() + ", seq " + meta.minSequence() + ".."
                + meta.maxSequence() + ")";
    }
}
