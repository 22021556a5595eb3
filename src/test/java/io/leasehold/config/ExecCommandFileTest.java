package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecCommandFileTest {

    @TempDir
    Path dir;

    @Test
    void aScriptThatIsNotExecutableIsToldWithTheFix() throws IOException {
        Path script = Files.writeString(dir.resolve("run.sh"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(Optional.of("names " + script + ", which is not executable: chmod +x " + script + ", or run it"
                + " as 'sh " + script + " --fast'"), ExecCommandFile.problem(script + " --fast"));
    }

    @Test
    void aScriptThatIsNotThereIsToldAsSuch() {
        Optional<String> said = ExecCommandFile.problem(dir.resolve("gone.sh").toString());
        assertTrue(said.orElse("").contains("which does not exist"), said.toString());
    }

    @Test
    void anExecutableScriptAndWhatTheShellReadsPass() throws IOException {
        Path script = Files.writeString(dir.resolve("ok.sh"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertEquals(Optional.empty(), ExecCommandFile.problem(script + " arg"));
        assertEquals(Optional.empty(), ExecCommandFile.problem("cat > /tmp/x"));
        assertEquals(Optional.empty(), ExecCommandFile.problem("sh " + dir.resolve("gone.sh")));
        assertEquals(Optional.empty(), ExecCommandFile.problem("$HOME/bin/run"));
        assertEquals(Optional.empty(), ExecCommandFile.problem("X=1 ./run.sh"));
    }
}
