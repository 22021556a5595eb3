package io.leasehold.nativeimage;

import java.util.Arrays;
import java.util.List;

/**
 * The words a native binary's {@code main} receives from those typed, as its build arguments decide. A
 * Substrate image by default parses runtime options out of the whole command line before {@code main}
 * (option {@code ParseRuntimeOptions}): every {@code -D} word becomes a system property and every
 * {@code -XX:} and {@code -X} size word an option, wherever it stands, even after {@code --} (issue 23 saw
 * {@code lease exec -- echo -Dfoo=bar -Xmx1g} print an empty line, and {@code -XX:+UseSerialGC} stop the
 * binary with "Could not find option"). Built with {@code -H:-ParseRuntimeOptions}, it passes every word on.
 */
final class NativeRunnerArgv {

    private NativeRunnerArgv() {
    }

    /** Whether the image parses runtime options: the last {@code -H:±ParseRuntimeOptions} decides, on by default. */
    static boolean parsesRuntimeOptions(List<String> imageArgs) {
        boolean parses = true;
        for (String arg : imageArgs) {
            if (arg.equals("-H:-ParseRuntimeOptions") || arg.equals("-H:ParseRuntimeOptions=false")) {
                parses = false;
            } else if (arg.equals("-H:+ParseRuntimeOptions") || arg.equals("-H:ParseRuntimeOptions=true")) {
                parses = true;
            }
        }
        return parses;
    }

    static String[] received(List<String> imageArgs, String... typed) {
        if (!parsesRuntimeOptions(imageArgs)) {
            return typed.clone();
        }
        return Arrays.stream(typed).filter(word -> !takenByTheRuntime(word)).toArray(String[]::new);
    }

    private static boolean takenByTheRuntime(String word) {
        return word.startsWith("-D") || word.startsWith("-XX:") || word.matches("-X(mx|ms|mn|ss).+");
    }
}
