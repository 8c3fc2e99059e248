package dev.tala.engine.open;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class JvmFlagsTest {
    private static final Module HERE = JvmFlagsTest.class.getModule();

    @Test
    void theTestJvmHasEveryPackagedFlag() {
        assertNotNull(JvmFlags.class.getResource("jvm.options"), "jvm.options is packaged beside JvmFlags");
        JvmFlags.require(); // surefire starts the tests with @jvm.options
    }

    @Test
    void flagsNotInEffectAreNamedAndOthersPass() {
        List<String> flags = List.of(
                "--add-opens java.base/java.nio=ALL-UNNAMED",
                "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED",
                "--add-exports java.base/jdk.internal.ref=ALL-UNNAMED",
                "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED",
                "--add-modules jdk.incubator.vector",
                "--add-modules jdk.no.such.module",
                "--enable-native-access=ALL-UNNAMED");
        assertEquals(List.of("--add-opens java.base/jdk.internal.misc=ALL-UNNAMED",
                "--add-exports java.base/jdk.internal.vm=ALL-UNNAMED",
                "--add-modules jdk.no.such.module"), JvmFlags.missing(flags, HERE));
    }
}
