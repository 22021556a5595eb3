package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.leasehold.command.Invocation;
import io.leasehold.command.OperatorCli;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

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

    /** The model takes what issue 23 saw an image built without the option take. */
    @Test
    void anImageThatParsesRuntimeOptionsWouldEatTheCommandsWords() {
        List<String> defaults = imageArgs.stream().filter(a -> !a.contains("ParseRuntimeOptions")).toList();
        assertArrayEquals(new String[] {"lease", "exec", "--", "echo"}, NativeRunnerArgv.received(defaults, EXEC));
    }
}
