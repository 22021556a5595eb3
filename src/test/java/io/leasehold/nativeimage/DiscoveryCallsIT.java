package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The service's own code discovers nothing at run time that a native image leaves out. Issue 23: the
 * start-up check found its sources through ServiceLoader, which the image does not carry, and the binary
 * refused every start. So: no call of a discovering API (ServiceLoader, SmallRye's and Quarkus' discovering
 * config builders, Jackson's module discovery) in {@code io.leasehold}, and every resource the code reads by
 * a constant name is one the image includes. A new call or resource fails here until it is registered or
 * written down in {@link #ACCEPTED} with the reason it is safe.
 */
class DiscoveryCallsIT {

    /** owner/name of the discovering calls; a name ending in '*' is a prefix. */
    private static final Set<String> DISCOVERING = Set.of(
            "java/util/ServiceLoader.load*",
            "io/smallrye/config/SmallRyeConfigBuilder.addDiscovered*",
            "io/smallrye/config/SmallRyeConfigBuilder.addDefaultSources",
            "io/quarkus/runtime/configuration/ConfigUtils.configBuilder",
            "io/quarkus/runtime/configuration/ConfigUtils.emptyConfigBuilder",
            "com/fasterxml/jackson/databind/ObjectMapper.findAndRegisterModules",
            "com/fasterxml/jackson/databind/ObjectMapper.findModules");

    /** Call sites that discover on purpose, each with why the image never takes that path. */
    private static final Map<String, String> ACCEPTED = Map.of("io.leasehold.config.RunTimeSources.builder",
            "only where Quarkus' generated builder is missing: a plain class path (unit tests), never a packaged"
                    + " jar or binary (StartConfigIT runs the check in the image's jars)");

    @Test
    void noCodeOfOursDiscoversWhatTheImageLeavesOut() {
        List<ClassNode> classes = ClassFiles.inDirectory(Path.of("target", "classes"));
        assertTrue(classes.size() > 100, "the scan reads the service's classes: " + classes.size());
        Map<String, String> found = new TreeMap<>();
        for (ClassNode type : classes) {
            for (MethodNode method : type.methods) {
                for (AbstractInsnNode insn : method.instructions) {
                    if (insn instanceof MethodInsnNode call && discovering(call)) {
                        found.put(where(type, method), call.owner + "." + call.name);
                    }
                }
            }
        }
        Set<String> stale = new TreeSet<>(ACCEPTED.keySet());
        stale.removeAll(found.keySet());
        assertEquals(Set.of(), stale, "ACCEPTED names call sites the scan no longer finds: remove them");
        found.keySet().removeAll(ACCEPTED.keySet());
        assertEquals(Map.of(), found, "calls that discover at run time, which a native image does not carry"
                + " (docs/native.md): name what they would find instead, or register it and write it in ACCEPTED");
        assertTrue(discovering(new MethodInsnNode(0, "java/util/ServiceLoader", "load", "()V")), "the matcher is alive");
    }

    @Test
    void everyResourceTheCodeReadsByNameIsInTheImage() {
        ImageClassLoader image = ImageClassLoader.of(NativeSources.load());
        Set<String> read = new TreeSet<>();
        Set<String> missing = new TreeSet<>();
        for (ClassNode type : ClassFiles.inDirectory(Path.of("target", "classes"))) {
            for (MethodNode method : type.methods) {
                for (AbstractInsnNode insn : method.instructions) {
                    if (insn instanceof MethodInsnNode call && call.name.startsWith("getResource")
                            && (call.owner.equals("java/lang/Class") || call.owner.equals("java/lang/ClassLoader"))) {
                        String name = constantBefore(call);
                        String resource = name == null ? null : resolve(type, call, name);
                        read.add(where(type, method) + " → " + resource);
                        if (resource == null || !image.carries(resource)) {
                            missing.add(where(type, method) + " → " + (resource == null ? "(not a constant)" : resource));
                        }
                    }
                }
            }
        }
        assertTrue(read.stream().anyMatch(r -> r.endsWith("io/leasehold/command/version.properties")),
                "the scan finds the version the command line prints: " + read);
        assertEquals(Set.of(), missing, "resources read that the native image does not include: add them to"
                + " src/main/resources/META-INF/native-image/io.leasehold/leasehold/resource-config.json");
    }

    private static boolean discovering(MethodInsnNode call) {
        for (String entry : DISCOVERING) {
            int dot = entry.lastIndexOf('.');
            String owner = entry.substring(0, dot);
            String name = entry.substring(dot + 1);
            boolean nameMatches = name.endsWith("*") ? call.name.startsWith(name.substring(0, name.length() - 1))
                    : call.name.equals(name);
            if (call.owner.equals(owner) && nameMatches) {
                return true;
            }
        }
        return false;
    }

    /** The string constant the call is given, when it is loaded just before it. */
    private static String constantBefore(MethodInsnNode call) {
        AbstractInsnNode previous = call.getPrevious();
        return previous instanceof LdcInsnNode ldc && ldc.cst instanceof String text ? text : null;
    }

    /** As Class.getResource resolves it: relative to the class's package unless it starts with '/'. */
    private static String resolve(ClassNode type, MethodInsnNode call, String name) {
        if (call.owner.equals("java/lang/ClassLoader")) {
            return name;
        }
        if (name.startsWith("/")) {
            return name.substring(1);
        }
        int slash = type.name.lastIndexOf('/');
        return (slash < 0 ? "" : type.name.substring(0, slash + 1)) + name;
    }

    private static String where(ClassNode type, MethodNode method) {
        return ClassFiles.binaryName(type.name) + "." + method.name;
    }
}
