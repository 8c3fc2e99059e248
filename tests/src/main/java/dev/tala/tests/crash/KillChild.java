package dev.tala.tests.crash;

import dev.tala.engine.Options;
import dev.tala.engine.TalaDB;
import dev.tala.wal.Durability;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The process the kill test murders: prints "opening", opens the database, prints "ready",
 * then runs one workload per thread, logging each write in the side log once it is
 * acknowledged, until it is killed. A kill takes the process, not the machine: a write handed
 * to the OS survives it, so with NONE durability too every acknowledged write must come back.
 * Arguments: DB_DIR SIDE_LOG SEED THREADS DURABILITY ({@link Durability#parse}).
 */
public final class KillChild {
    private KillChild() {
    }

    /** The options the child and the supervisor open the database with. */
    public static Options options(Durability durability) {
        return Options.builder().durability(durability).memtableBytes(256 * 1024).build();
    }

    /** The seed of one thread's workload in one round. */
    public static long threadSeed(long roundSeed, int thread) {
        return roundSeed * 1_000_003L + thread;
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        Path sideLog = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        int threads = Integer.parseInt(args[3]);
        Durability durability = Durability.parse(args[4]);
        // Tells the supervisor that recovery starts now, so that it can aim a kill at it.
        System.out.println("opening");
        System.out.flush();
        TalaDB tala = TalaDB.open(db, options(durability).toBuilder().createIfMissing(false).build());
        SideLog log = new SideLog(sideLog);
        System.out.println("ready");
        System.out.flush();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = new Thread(() -> {
                Workload workload = new Workload(threadSeed(seed, thread), tala.dimension());
                try {
                    while (true) {
                        Workload.Write write = workload.next();
                        log.begin(thread, write.index());
                        tala.write(write.batch());
                        log.acknowledged(thread, write.index());
                    }
                } catch (Exception e) {
                    System.err.println("writer " + thread + " stopped: " + e);
                }
            }, "crash-writer-" + t);
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
    }
}
