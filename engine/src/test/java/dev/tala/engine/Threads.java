package dev.tala.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;

/** Stack traces of every live thread, for a test that finds one of its threads hung. */
final class Threads {
    private Threads() {}

    static String dumpAll() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(info.getThreadName()).append("\" ").append(info.getThreadState());
            if (info.getLockName() != null) {
                out.append(" on ").append(info.getLockName());
            }
            if (info.getLockOwnerName() != null) {
                out.append(" held by \"").append(info.getLockOwnerName()).append('"');
            }
            out.append('\n');
            for (StackTraceElement frame : info.getStackTrace()) {
                out.append("\tat ").append(frame).append('\n');
            }
        }
        return out.toString();
    }
}
