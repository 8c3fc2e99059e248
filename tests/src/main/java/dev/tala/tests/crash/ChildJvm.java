package dev.tala.tests.crash;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of a child JVM run like this one: the same java, JVM flags and class path. */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * @param heap  the child's {@code -Xmx} flag in place of this JVM's, whose heap-dump flags are
     *              dropped too (a child run out of memory on purpose leaves no dump); null keeps both
     * @param flags further JVM flags for the child
     */
    public static List<String> command(String heap, List<String> flags, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // Debugger and agent flags of the parent would collide in the child.
            boolean debugger = arg.startsWith("-agentlib") || arg.startsWith("-javaagent") || arg.startsWith("-Xrunjdwp");
            boolean heapFlag = arg.startsWith("-Xmx") || arg.contains("HeapDump");
            if (!debugger && !(heap != null && heapFlag)) {
                cmd.add(arg);
            }
        }
        if (heap != null) {
            cmd.add(heap);
        }
        cmd.addAll(flags);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }
}
