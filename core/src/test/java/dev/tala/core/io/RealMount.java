package dev.tala.core.io;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small real file system mounted for a test (tmpfs, or ext4 on a loop device): what the
 * fault-injecting layer only simulates. Needs root; the test is skipped when mounting is not
 * possible. Close unmounts.
 */
public final class RealMount implements AutoCloseable {
    public final Path dir;

    private RealMount(Path dir) {
        this.dir = dir;
    }

    public static RealMount tmpfs(Path under, int kib) throws Exception {
        assumeRoot();
        Path dir = Files.createDirectories(under.resolve("tmpfs"));
        assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=" + kib + "k", "tmpfs", dir.toString()) == 0, "cannot mount tmpfs");
        return new RealMount(dir);
    }

    /** ext4 with 1 KiB blocks and no reserved blocks, in an image file of {@code kib} KiB. */
    public static RealMount ext4(Path under, int kib) throws Exception {
        assumeRoot();
        Path image = under.resolve("ext4.img");
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.write(ByteBuffer.allocate(1), (long) kib * 1024 - 1);
        }
        assumeTrue(run("mkfs.ext4", "-q", "-F", "-m", "0", "-b", "1024", image.toString()) == 0, "no mkfs.ext4");
        Path dir = Files.createDirectories(under.resolve("ext4"));
        assumeTrue(run("mount", "-o", "loop", image.toString(), dir.toString()) == 0, "cannot loop-mount ext4");
        return new RealMount(dir);
    }

    private static void assumeRoot() {
        assumeTrue(System.getProperty("os.name", "").toLowerCase().startsWith("linux"), "Linux only");
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to mount");
    }

    public long usable() throws IOException {
        return Files.getFileStore(dir).getUsableSpace();
    }

    /** Writes zeros into {@code name} until the file system is full. */
    public void fill(String name) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate(4096);
        try (FileChannel ch = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            while (true) {
                zeros.clear();
                ch.write(zeros);
            }
        } catch (IOException full) {
            // no space left: what was asked for
        }
    }

    static int run(String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    @Override
    public void close() throws Exception {
        run("umount", "-l", dir.toString()); // lazily: a file a failed test left open must not keep it mounted
    }
}
