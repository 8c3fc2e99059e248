package dev.tala.core.io;

import java.nio.file.Path;

/** Run in a child JVM by LocalFileLayerTest: holds a lock until its stdin closes. */
public final class LockHolder {
    private LockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (DirectoryLock lock = LocalFileLayer.INSTANCE.lock(Path.of(args[0]))) {
            System.out.println("locked");
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the parent to close our stdin
            }
        }
    }
}
