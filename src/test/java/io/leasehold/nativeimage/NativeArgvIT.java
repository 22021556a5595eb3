package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.leasehold.command.Invocation;
import io.leasehold.cli.OperatorCli;
import io.leasehold.testing.PackagedArtifact;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary's words reach the service untouched: the arguments Quarkus hands native-image build an image
 * that reads no runtime options from the command line, and the routing of {@code main} then gets exactly
 * the words typed (issue 23: {@code lease exec -- echo -Dfoo=bar -Xmx1g} printed an empty line).
 */
class NativeArgvIT {

    private static final String[] EXEC = {"lease", "exec", "--", "echo", "-Dfoo=bar", "-Xmx1g", "-XX:+UseSerialGC"};

    private final List<String> imageArgs = NativeSources.load().args;

    @Test
    void theImageIsBuiltToLeaveEveryWordToMain() {
        assertFalse(NativeRunnerArgv.parsesRuntimeOptions(imageArgs), "native-image.args: " + imageArgs);
    }

    @Test
    void wordsThatLookLikeRuntimeOptionsReachTheCommandInTheBinary() throws Exception {
        String[] words = OperatorCli.settings(NativeRunnerArgv.received(imageArgs, EXEC));
        assertEquals("lease", words[0]);
        Invocation exec = Invocation.parse(Arrays.asList(words).subList(1, words.length));
        assertEquals(List.of("echo", "-Dfoo=bar", "-Xmx1g", "-XX:+UseSerialGC"), exec.argv());
    }

    @Test
    void leadingSettingsAreSetByMainInTheBinary() {
        String key = "leasehold.native-argv-test.dir";
        try {
            String[] words = OperatorCli.settings(NativeRunnerArgv.received(imageArgs, "-D" + key + "=/x", "items", "list"));
            assertArrayEquals(new String[] {"items", "list"}, words);
            assertEquals("/x", System.getProperty(key));
        } finally {
            System.clearProperty(key);
        }
    }

    /** What every multi-process test starts under -Dnative: its settings are settings, its words the command. */
    @Test
    void theCommandTheTestsStartTheBinaryWithIsRoutedAsTyped(@TempDir Path target) throws Exception {
        Files.setPosixFilePermissions(Files.writeString(target.resolve("leasehold-runner"), ""),
                java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        PackagedArtifact binary = PackagedArtifact.read(Files.writeString(target.resolve("quarkus-artifact.properties"),
                "path=leasehold-runner\ntype=native\n"));
        List<String> command = binary.command(List.of("-Xmx160m", "-XX:+UseSerialGC"),
                Map.of("leasehold.native-argv-test.port", "40000"), List.of("items", "list"));
        String key = "leasehold.native-argv-test.port";
        try {
            String[] typed = command.subList(1, command.size()).toArray(String[]::new);
            String[] words = OperatorCli.settings(NativeRunnerArgv.received(imageArgs, typed));
            assertArrayEquals(new String[] {"items", "list"}, words, "no -X word is left for main to refuse: " + command);
            assertEquals("40000", System.getProperty(key));
        } finally {
            System.clearProperty(key);
        }
    }

    /** The model takes what issue 23 saw an image built without the option take. */
    @Test
    void anImageThatParsesRuntimeOptionsWouldEatTheCommandsWords() {
        List<String> defaults = imageArgs.stream().filter(a -> !a.contains("ParseRuntimeOptions")).toList();
        assertArrayEquals(new String[] {"lease", "exec", "--", "echo"}, NativeRunnerArgv.received(defaults, EXEC));
    }
}
