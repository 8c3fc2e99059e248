package dev.tala.core.io;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens file channels that a Java interrupt does not close.
 *
 * <p>A {@link FileChannel} closes itself when the thread using it is interrupted, before or
 * during an operation. For a database that is fatal out of all proportion: a service that
 * cancels one request ({@code Future.cancel(true)}, {@code shutdownNow}) would close the WAL
 * under every other writer, and a write or force that may or may not have happened cannot be
 * trusted, so the database would have to turn read-only. The JDK's own channel can be told not
 * to do this ({@code sun.nio.ch.FileChannelImpl.setUninterruptible}, which the JDK uses for its
 * own files); the operation then runs to its end and the caller's interrupt flag stays set for
 * the caller to see. The method is reached through reflection, which {@code jvm.options}'s
 * {@code --add-opens java.base/sun.nio.ch} allows. Without it the channels stay interruptible,
 * and a warning says so once.
 */
final class UninterruptibleChannels {
    private static final Logger LOG = LoggerFactory.getLogger(UninterruptibleChannels.class);
    private static final Method SET_UNINTERRUPTIBLE = find();

    private UninterruptibleChannels() {
    }

    /**
     * As {@link #open}, for a path that must be a regular file: one that is there and is
     * anything else is refused first ({@link RegularFiles}).
     */
    static FileChannel openFile(Path file, OpenOption... options) throws IOException {
        RegularFiles.refuseOtherKinds(file);
        return open(file, options);
    }

    /** {@link FileChannel#open(Path, OpenOption...)}, made uninterruptible where the JVM allows it. */
    static FileChannel open(Path file, OpenOption... options) throws IOException {
        FileChannel channel = FileChannel.open(file, options);
        if (SET_UNINTERRUPTIBLE != null && SET_UNINTERRUPTIBLE.getDeclaringClass().isInstance(channel)) {
            try {
                SET_UNINTERRUPTIBLE.invoke(channel);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // Found and opened at start-up, so this does not happen; the channel still works.
                LOG.debug("could not make the channel of {} uninterruptible", file, e);
            }
        }
        return channel;
    }

    /** Whether channels opened here ignore interrupts. */
    static boolean supported() {
        return SET_UNINTERRUPTIBLE != null;
    }

    private static Method find() {
        try {
            Method m = Class.forName("sun.nio.ch.FileChannelImpl").getMethod("setUninterruptible");
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("TalaDB's files can be closed by a Java interrupt on this JVM ({}); an interrupted "
                    + "writer may then turn the database read-only. Start the JVM with the flags in "
                    + "jvm.options (--add-opens java.base/sun.nio.ch=ALL-UNNAMED).", e.toString());
            return null;
        }
    }
}
