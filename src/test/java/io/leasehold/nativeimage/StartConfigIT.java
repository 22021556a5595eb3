package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The start-up check and command mode read, in the binary, exactly the configuration the service runs with.
 * Issue 23: the binary refused every start ("quarkus.http.limits.max-connections is unset") because the check
 * discovered its sources through ServiceLoader, which a Quarkus image does not carry, so the descriptor
 * budget was never found. Here the check runs on the image's own jars with only the resources the image
 * includes ({@link ImageClassLoader}), beside the same jars with every resource, as the jar runs. Command
 * mode builds its configuration with the same {@code RunTimeSources}; that it discovers nothing is pinned
 * by {@link DiscoveryCallsIT} (its values equal the check's wherever the budget's equal the defaults).
 */
@Isolated // clears the leasehold.* system properties while it runs: nothing may start beside it
class StartConfigIT {

    /** The keys the descriptor budget derives from the open-files limit (DescriptorDefaults). */
    private static final Set<String> DERIVED = Set.of("quarkus.http.limits.max-connections",
            "leasehold.item.max-uploads", "quarkus.http.accept-backlog");

    private static ImageClassLoader image;
    private static URLClassLoader jar;

    @BeforeAll
    static void load() {
        NativeSources sources = NativeSources.load();
        image = ImageClassLoader.of(sources);
        jar = new URLClassLoader("jar", image.getURLs(), ClassLoader.getPlatformClassLoader());
    }

    @AfterAll
    static void close() throws Exception {
        image.close();
        jar.close();
    }

    @Test
    void theStartCheckPassesWithOnlyWhatTheImageCarries() throws Exception {
        assertEquals(Optional.empty(), refusalAtStart(image), "the binary's start with default settings");
        assertEquals(Optional.empty(), refusalAtStart(jar), "the jar's start with default settings");

        // The model is alive: discovery through the context loader, as the check did before, finds the budget's
        // source in the jar and not in the image, which stopped the binary exactly as issue 23 reports.
        assertEquals(Optional.empty(), discoveringRefusal(jar));
        Optional<?> discovering = discoveringRefusal(image);
        assertTrue(discovering.isPresent() && discovering.get().toString().contains("quarkus.http.limits.max-connections is unset"),
                "discovery in the image: " + discovering);
        assertFalse(image.carries("application.properties"), "a Quarkus image carries its values, not the file");
        assertTrue(jar.findResource("application.properties") != null, "the jar does");
    }

    @Test
    void theBinaryReadsWhatTheJarReads() throws Exception {
        Map<String, String> inImage = values(image);
        Map<String, String> inJar = values(jar);
        assertTrue(inJar.keySet().containsAll(DERIVED), "the budget derived every key: " + inJar);
        assertEquals("10s", inJar.get("quarkus.http.read-timeout"), "the packaged application.properties is read");
        assertEquals(inJar, inImage, "the same settings, whichever form starts");
    }

    /** Quarkus records every runtime value its build's configuration lists into the artifact. */
    @Test
    void theBuildMachinesDescriptorBudgetIsNotRecordedInTheArtifact() throws Exception {
        Class<?> generated = image.loadClass("io.quarkus.runtime.generated.RunTimeConfigCustomizer");
        java.lang.reflect.Field field = generated.getDeclaredField("runtimeValues");
        field.setAccessible(true);
        @SuppressWarnings("unchecked")
        Map<String, String> recorded = (Map<String, String>) field.get(null);
        assertEquals("10s", recorded.get("quarkus.http.read-timeout"), "the recording is read: " + recorded.keySet());
        Set<String> baked = new TreeSet<>(DERIVED);
        baked.retainAll(recorded.keySet());
        assertEquals(Set.of(), baked, "derived at build time and recorded as if set: " + recorded);
    }

    private static Optional<?> refusalAtStart(ClassLoader loader) throws Exception {
        return inContext(loader, () -> (Optional<?>) invoke(loader, "io.leasehold.config.ConfigPreflight", "refusalAtStart"));
    }

    private static Optional<?> discoveringRefusal(ClassLoader loader) throws Exception {
        return inContext(loader, () -> {
            Object builder = invoke(loader, "io.quarkus.runtime.configuration.ConfigUtils", "configBuilder");
            Class<?> type = loader.loadClass("io.smallrye.config.SmallRyeConfigBuilder");
            Method refusal = loader.loadClass("io.leasehold.config.ConfigPreflight").getDeclaredMethod("refusal", type);
            refusal.setAccessible(true);
            return (Optional<?>) refusal.invoke(null, builder);
        });
    }

    /** Every leasehold.* and quarkus.http.* value the service's mapped configuration holds, by key. */
    private static Map<String, String> values(ClassLoader loader) throws Exception {
        return inContext(loader, () -> {
            Object builder = invoke(loader, "io.leasehold.config.RunTimeSources", "builder");
            Class<?> builderType = loader.loadClass("io.smallrye.config.SmallRyeConfigBuilder");
            Object config = loader.loadClass("io.leasehold.config.MappedConfig").getMethod("build", builderType)
                    .invoke(null, builder);
            Class<?> configType = loader.loadClass("org.eclipse.microprofile.config.Config");
            Set<String> keys = new TreeSet<>(DERIVED);
            for (Object name : (Iterable<?>) configType.getMethod("getPropertyNames").invoke(config)) {
                if (name.toString().startsWith("leasehold.") || name.toString().startsWith("quarkus.http.")) {
                    keys.add(name.toString());
                }
            }
            Map<String, String> out = new TreeMap<>();
            Method valueOf = configType.getMethod("getConfigValue", String.class);
            for (String key : keys) {
                Object value = valueOf.invoke(config, key);
                Object text = value.getClass().getMethod("getValue").invoke(value);
                if (text != null) {
                    out.put(key, text.toString());
                }
            }
            return out;
        });
    }

    private static Object invoke(ClassLoader loader, String type, String method) throws Exception {
        Method m = loader.loadClass(type).getDeclaredMethod(method);
        m.setAccessible(true);
        try {
            return m.invoke(null);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * Runs {@code work} with {@code loader} as the context loader and without the test plumbing's own
     * {@code leasehold.*} system properties (the rounds, where the artifacts are), which a service refuses
     * as unknown keys: the configuration is then the packaged defaults, as a plain start has it.
     */
    private static <T> T inContext(ClassLoader loader, Callable<T> work) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        Map<String, String> plumbing = new TreeMap<>();
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("leasehold.")) {
                plumbing.put(key, System.clearProperty(key));
            }
        }
        thread.setContextClassLoader(loader);
        try {
            return work.call();
        } finally {
            thread.setContextClassLoader(before);
            plumbing.forEach(System::setProperty);
        }
    }
}
