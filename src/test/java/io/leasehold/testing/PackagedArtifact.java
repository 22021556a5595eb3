package io.leasehold.testing;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The packaged leasehold as the last build produced it, and the one place that turns it into a command
 * line. Quarkus writes {@code target/quarkus-artifact.properties} at package time: {@code type=native}
 * after {@code ./mvnw verify -Dnative}, {@code type=jar} otherwise. Every test that starts leasehold as a
 * process goes through here, so where native is built every such test runs the native runner.
 */
public final class PackagedArtifact {

    /** The system property (set by failsafe) naming the properties file. */
    public static final String LOCATION = "leasehold.artifact.properties";

    /**
     * The system property (set by failsafe) naming where the jar's class-data archive is kept
     * ({@link ClassDataArchive}); unset or blank: every JVM loads its classes from the jar.
     */
    public static final String CDS = "leasehold.artifact.cds";

    /**
     * The system property (set by failsafe) of JVM options every start of the jar is given before the test's
     * own: {@code -XX:TieredStopAtLevel=1} in the suite, where each JVM lives seconds and so spends about a
     * third less CPU starting; blank under {@code -Pbenchmark}, whose figures are the JVM's defaults.
     */
    public static final String JVM_OPTIONS = "leasehold.artifact.jvm-options";

    private static final String HOW_TO_BUILD = "build it with ./mvnw package (the jar) or ./mvnw verify -Dnative"
            + " (the native runner)";


    public enum Type { JAR, NATIVE }

    private static PackagedArtifact current;

    private final Type type;
    private final Path file;
    /** The JVM's class-data archive of the jar, made from a start of this very jar; null: none. */
    private final Path sharedArchive;
    /** The java that runs the jar; null: the suite's own (java.home). */
    private final Path java;

    private PackagedArtifact(Type type, Path file) {
        this(type, file, null, null);
    }

    private PackagedArtifact(Type type, Path file, Path sharedArchive, Path java) {
        this.type = type;
        this.file = file;
        this.sharedArchive = sharedArchive;
        this.java = java;
    }

    /**
     * The same jar run by another {@code java} (another JDK's), without the class-data archive, which is the
     * suite's JDK's own. Only for a jar: a native runner has no JVM to choose.
     */
    public PackagedArtifact onJava(Path otherJava) {
        if (type != Type.JAR) {
            throw new IllegalStateException("a native runner is not run by a java: " + this);
        }
        return new PackagedArtifact(type, file, null, otherJava);
    }

    /** The artifact named by the file in {@link #LOCATION}, read on first use; every later call answers the same. */
    public static synchronized PackagedArtifact current() {
        if (current == null) {
            String location = System.getProperty(LOCATION);
            if (location == null) {
                throw new IllegalStateException("system property " + LOCATION + " is not set: run the test through"
                        + " failsafe (./mvnw verify), which names target/quarkus-artifact.properties in it");
            }
            PackagedArtifact read = read(Path.of(location));
            String cds = System.getProperty(CDS, "");
            if (read.type == Type.JAR && !cds.isBlank()) {
                // Only a start's speed changes: the same jar, its classes mapped from an archive of its own.
                Path archive = ClassDataArchive.prepare(read, Path.of(cds));
                read = archive == null ? read : new PackagedArtifact(read.type, read.file, archive, null);
            }
            current = read;
        }
        return current;
    }

    /** Reads a quarkus-artifact.properties; its {@code path} is relative to the file's own directory. */
    public static PackagedArtifact read(Path properties) {
        Path where = properties.toAbsolutePath();
        if (!Files.isRegularFile(where)) {
            throw new IllegalStateException(where + " does not exist, so there is no packaged artifact: " + HOW_TO_BUILD);
        }
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(where, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + where, e);
        }
        String typeName = p.getProperty("type");
        String path = p.getProperty("path");
        String found = where + " says type=" + typeName + ", path=" + path;
        Type type;
        if ("jar".equals(typeName)) {
            type = Type.JAR;
        } else if ("native".equals(typeName)) {
            type = Type.NATIVE;
        } else if ("native-sources".equals(typeName)) {
            throw new IllegalStateException(found + ": the sources of a native build, nothing that runs; "
                    + HOW_TO_BUILD);
        } else {
            throw new IllegalStateException(found + ": only jar and native can be run; " + HOW_TO_BUILD);
        }
        if (path == null || path.isBlank()) {
            throw new IllegalStateException(found + ": no path to the artifact; " + HOW_TO_BUILD);
        }
        Path file = where.getParent().resolve(path);
        boolean usable = type == Type.JAR ? Files.isRegularFile(file) : Files.isExecutable(file);
        if (!usable) {
            throw new IllegalStateException(found + ", but " + file + " is missing"
                    + (type == Type.NATIVE ? " or not executable" : "") + "; " + HOW_TO_BUILD);
        }
        return new PackagedArtifact(type, file);
    }

    public Type type() {
        return type;
    }

    public Path file() {
        return file;
    }

    /**
     * The command that runs the artifact: the suite's {@link #JVM_OPTIONS}, {@code jvmOptions} (each {@code -X...}), then {@code settings} as
     * {@code -Dkey=value}, then {@code args} for the application. The native runner reads no runtime options
     * from its command line (its image is built with {@code -H:-ParseRuntimeOptions}, docs/native.md) and
     * refuses a first word {@code -X...}: the JVM options are left out for it, its heap is its own default.
     */
    public List<String> command(List<String> jvmOptions, Map<String, String> settings, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(type == Type.NATIVE ? file.toString()
                : java != null ? java.toString() : Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> options = new ArrayList<>();
        String suiteOptions = System.getProperty(JVM_OPTIONS, "").strip();
        if (!suiteOptions.isEmpty()) {
            options.addAll(List.of(suiteOptions.split("\\s+")));
        }
        options.addAll(jvmOptions);
        for (String option : options) {
            if (!option.startsWith("-X")) {
                throw new IllegalArgumentException("not a JVM option: " + option + " (settings go in as -D, the rest"
                        + " are arguments)");
            }
            if (type == Type.JAR) {
                command.add(option);
            }
        }
        if (type == Type.JAR && sharedArchive != null) {
            // Made from this jar (ClassDataArchive): it always loads; should it not, the JVM says nothing.
            command.add("-XX:SharedArchiveFile=" + sharedArchive);
            command.add("-Xlog:cds=off,cds+dynamic=off");
        }
        settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
        if (type == Type.JAR) {
            command.add("-jar");
            command.add(file.toString());
        }
        command.addAll(args);
        return command;
    }

    @Override
    public String toString() {
        return type.name().toLowerCase() + " " + file;
    }
}
