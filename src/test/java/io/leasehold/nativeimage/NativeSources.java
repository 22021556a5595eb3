package io.leasehold.nativeimage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * What Quarkus would hand to native-image, read from the output of a sources-only native build
 * ({@code target/native-check/native-sources}, made by the {@code native-sources} execution in the pom):
 * the arguments, the reflection registrations and the classes initialised at run time. These are the
 * answers of Quarkus itself, not a model of its rules; only the native-image run is missing.
 */
final class NativeSources {

    private static final ObjectMapper JSON = new ObjectMapper();

    final Path dir;
    final List<String> args;
    final Path runnerJar;

    private NativeSources(Path dir, List<String> args, Path runnerJar) {
        this.dir = dir;
        this.args = args;
        this.runnerJar = runnerJar;
    }

    static NativeSources load() {
        String where = System.getProperty("leasehold.native-sources");
        if (where == null || !Files.isRegularFile(Path.of(where, "native-image.args"))) {
            throw new IllegalStateException("no native-image sources at " + where
                    + ": they are made by the pom's native-sources execution in the package phase (./mvnw verify)");
        }
        Path dir = Path.of(where);
        try {
            List<String> args = List.of(Files.readString(dir.resolve("native-image.args")).trim().split("\\s+"));
            Path runner;
            try (Stream<Path> files = Files.list(dir)) {
                runner = files.filter(f -> f.getFileName().toString().endsWith("-runner.jar")).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no *-runner.jar in " + dir));
            }
            return new NativeSources(dir, args, runner);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every jar the image is built from: the runner and its libraries. */
    List<Path> jars() {
        try (Stream<Path> libs = Files.walk(dir.resolve("lib"))) {
            List<Path> out = new ArrayList<>(List.of(runnerJar));
            libs.filter(f -> f.toString().endsWith(".jar")).sorted().forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reflection registrations by class name, merged over the runner's configuration files (both the
     * older {@code reflect-config.json} and the newer {@code reachability-metadata.json} forms).
     */
    Map<String, Set<String>> reflection() {
        Map<String, Set<String>> out = new HashMap<>();
        try (ZipFile zip = new ZipFile(runnerJar.toFile())) {
            for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
                String name = entry.getName();
                if (!name.startsWith("META-INF/native-image/")) {
                    continue;
                }
                if (name.endsWith("reflect-config.json")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        addEntries(JSON.readTree(in), "name", out);
                    }
                } else if (name.endsWith("reachability-metadata.json")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        addEntries(JSON.readTree(in).path("reflection"), "type", out);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static void addEntries(JsonNode entries, String nameField, Map<String, Set<String>> out) {
        for (JsonNode e : entries) {
            Set<String> flags = out.computeIfAbsent(e.path(nameField).asText(), k -> new LinkedHashSet<>());
            e.fieldNames().forEachRemaining(field -> {
                if (e.get(field).isBoolean() && e.get(field).asBoolean()) {
                    flags.add(field);
                }
            });
        }
    }

    /**
     * Classes and packages initialised at run time: the {@code --initialize-at-run-time} arguments and
     * the classes Quarkus' generated {@code io.quarkus.runner.Feature} hands to
     * {@code RuntimeClassInitialization.initializeAtRunTime} (each pushed as
     * {@code Class.forName("name", false, loader)} onto the list it passes).
     */
    Set<String> runTimeInitialised() {
        Set<String> out = new LinkedHashSet<>();
        for (String arg : args) {
            addRunTimeNames(arg, out);
        }
        out.addAll(featureRunTimeClasses());
        out.addAll(libraryRunTimeClasses());
        return out;
    }

    /** {@code --initialize-at-run-time} in the {@code native-image.properties} libraries ship for themselves. */
    private Set<String> libraryRunTimeClasses() {
        Set<String> out = new LinkedHashSet<>();
        for (Path jar : jars()) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (ZipEntry entry : java.util.Collections.list(zip.entries())) {
                    if (!entry.getName().startsWith("META-INF/native-image/")
                            || !entry.getName().endsWith("/native-image.properties")) {
                        continue;
                    }
                    Properties properties = new Properties();
                    try (InputStream in = zip.getInputStream(entry)) {
                        properties.load(in);
                    }
                    for (String arg : properties.getProperty("Args", "").trim().split("\\s+")) {
                        addRunTimeNames(arg, out);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static void addRunTimeNames(String arg, Set<String> out) {
        if (arg.startsWith("--initialize-at-run-time=")) {
            // In native-image.args the list's commas are escaped ("a\\,b").
            for (String name : arg.substring("--initialize-at-run-time=".length()).split("[,\\\\]+")) {
                if (!name.isBlank()) {
                    out.add(name);
                }
            }
        }
    }

    private Set<String> featureRunTimeClasses() {
        Set<String> out = new LinkedHashSet<>();
        try (ZipFile zip = new ZipFile(runnerJar.toFile())) {
            ZipEntry feature = zip.getEntry("io/quarkus/runner/Feature.class");
            if (feature == null) {
                throw new IllegalStateException("no io/quarkus/runner/Feature.class in " + runnerJar);
            }
            ClassNode node;
            try (InputStream in = zip.getInputStream(feature)) {
                node = ClassFiles.read(in);
            }
            for (MethodNode method : node.methods) {
                if (!callsInitializeAtRunTime(method)) {
                    continue;
                }
                for (AbstractInsnNode insn : method.instructions) {
                    if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof String name && isForNameThenAdd(ldc)) {
                        out.add(name);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static boolean callsInitializeAtRunTime(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn instanceof MethodInsnNode call && call.name.equals("initializeAtRunTime")
                    && call.owner.equals("org/graalvm/nativeimage/hosted/RuntimeClassInitialization")) {
                return true;
            }
        }
        return false;
    }

    /** ldc name; iconst_0; aload loader; invokestatic Class.forName; invokeinterface Collection.add. */
    private static boolean isForNameThenAdd(LdcInsnNode ldc) {
        AbstractInsnNode insn = ldc.getNext();
        if (insn == null || insn.getOpcode() != Opcodes.ICONST_0) {
            return false;
        }
        insn = insn.getNext();
        if (insn == null || insn.getOpcode() != Opcodes.ALOAD) {
            return false;
        }
        insn = insn.getNext();
        if (!(insn instanceof MethodInsnNode forName) || !forName.name.equals("forName")
                || !forName.owner.equals("java/lang/Class")) {
            return false;
        }
        return insn.getNext() instanceof MethodInsnNode add && add.name.equals("add");
    }
}
