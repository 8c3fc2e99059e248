package dev.tala.bench.probe;

import java.util.concurrent.locks.LockSupport;

/**
 * What it costs one thread to wake another on this machine: two threads pass a turn back and
 * forth 20,000 times with park/unpark, and the time per pass is printed. On a virtual machine
 * whose idle processors halt, this is far more than a context switch, and it is what group
 * commit pays for every writer it has to wake. Run: {@code java -cp bench/target/classes
 * dev.tala.bench.probe.HandoffProbe}.
 */
public final class HandoffProbe {
    private static final int PASSES = 20_000;
    private static volatile int turn;

    private HandoffProbe() {
    }

    public static void main(String[] args) throws Exception {
        Thread[] players = new Thread[2];
        for (int p = 0; p < 2; p++) {
            int me = p;
            players[p] = new Thread(() -> {
                for (int i = 0; i < PASSES; i++) {
                    while (turn != me) {
                        LockSupport.park();
                    }
                    turn = 1 - me;
                    LockSupport.unpark(players[1 - me]);
                }
            });
        }
        long start = System.nanoTime();
        players[0].start();
        players[1].start();
        players[0].join();
        players[1].join();
        System.out.printf("one park/unpark hand-off: %.1f µs%n", (System.nanoTime() - start) / 1e3 / (2.0 * PASSES));
    }
}
