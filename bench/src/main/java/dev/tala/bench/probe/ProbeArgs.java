package dev.tala.bench.probe;

import java.util.List;

/**
 * The command line of a group-commit probe: the number of writer threads (default 16), then
 * flags, either bare ({@code virtual}) or with a number ({@code batch=16}).
 */
record ProbeArgs(int threads, List<String> flags) {
    static ProbeArgs parse(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        List<String> flags = args.length > 1 ? List.of(args).subList(1, args.length) : List.of();
        return new ProbeArgs(threads, flags);
    }

    boolean has(String flag) {
        return flags.contains(flag);
    }

    /** The number given as {@code name=N}, or {@code otherwise} when the flag is absent. */
    int number(String name, int otherwise) {
        String prefix = name + "=";
        return flags.stream().filter(f -> f.startsWith(prefix)).mapToInt(f -> Integer.parseInt(f.substring(prefix.length())))
                .findFirst().orElse(otherwise);
    }
}
