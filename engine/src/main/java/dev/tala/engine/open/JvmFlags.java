package dev.tala.engine.open;

import dev.tala.core.error.TalaException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks, before a database is opened, that the JVM runs with the flags of {@code jvm.options}
 * (packaged beside this class from the repository's one copy). Without them the first WAL
 * buffer fails deep inside chronicle-bytes with an {@code IllegalAccessError} wrapped in a
 * {@code ClassCastException}, which names neither the flag nor the file; this names both.
 *
 * <p>Only classpath deployments are checked: there TalaDB and its libraries share the unnamed
 * module the flags open packages to ({@code ALL-UNNAMED}). On the module path the embedder
 * grants access per module, which this cannot second-guess.
 */
final class JvmFlags {
    private static final String RESOURCE = "jvm.options";
    private static volatile boolean checked;

    private JvmFlags() {
    }

    static void require() {
        if (checked || JvmFlags.class.getModule().isNamed()) {
            return;
        }
        List<String> missing = missing(readFlags(), JvmFlags.class.getModule());
        if (!missing.isEmpty()) {
            throw new TalaException("this JVM was started without flags TalaDB needs: " + String.join(" ", missing)
                    + "; start it with the flags in TalaDB's jvm.options (java @path/to/jvm.options ...;"
                    + " README, \"JVM flags\")");
        }
        checked = true;
    }

    /** The flags of {@code flags} (one per line, as in jvm.options) that are not in effect for {@code module}. */
    static List<String> missing(List<String> flags, Module module) {
        List<String> missing = new ArrayList<>();
        for (String line : flags) {
            String[] parts = line.trim().split("\\s+", 2);
            if (parts.length < 2) {
                continue;
            }
            String option = parts[0];
            String value = parts[1];
            boolean ok = switch (option) {
                case "--add-modules" -> ModuleLayer.boot().findModule(value).isPresent();
                case "--add-opens", "--add-exports" -> granted(option, value, module);
                default -> true; // native access and the like only warn when missing
            };
            if (!ok) {
                missing.add(option + " " + value);
            }
        }
        return missing;
    }

    /** {@code value} is {@code module/package=target}; the target is this unnamed module here. */
    private static boolean granted(String option, String value, Module to) {
        int slash = value.indexOf('/');
        int equals = value.indexOf('=');
        if (slash < 0 || equals < slash) {
            return true;
        }
        Optional<Module> source = ModuleLayer.boot().findModule(value.substring(0, slash));
        String pkg = value.substring(slash + 1, equals);
        if (source.isEmpty()) {
            return false;
        }
        return option.equals("--add-opens") ? source.get().isOpen(pkg, to) : source.get().isExported(pkg, to);
    }

    private static List<String> readFlags() {
        try (InputStream in = JvmFlags.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return List.of(); // not packaged (a build without resources): nothing to compare against
            }
            List<String> flags = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    if (line.startsWith("--")) {
                        flags.add(line);
                    }
                }
            }
            return flags;
        } catch (IOException e) {
            throw new UncheckedIOException("reading the packaged " + RESOURCE, e);
        }
    }
}
