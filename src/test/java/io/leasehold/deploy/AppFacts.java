package io.leasehold.deploy;

import io.leasehold.api.DrainResource;
import io.leasehold.config.ConfigCheck;
import io.leasehold.config.LeaseholdConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What the application really offers, read from its code and its application.properties (never restated by hand). */
final class AppFacts {

    static final java.nio.file.Path APPLICATION_PROPERTIES = java.nio.file.Path.of("src/main/resources/application.properties");

    private AppFacts() {
    }

    /** Every leasehold.* key: the @ConfigMapping methods in kebab case, nested groups and @WithParentName included. */
    static Set<String> configKeys() {
        Set<String> keys = new TreeSet<>();
        collect(LeaseholdConfig.class.getAnnotation(ConfigMapping.class).prefix(), LeaseholdConfig.class, keys);
        return keys;
    }

    private static void collect(String path, Class<?> group, Set<String> keys) {
        for (Method m : group.getDeclaredMethods()) {
            if (m.isDefault() || Modifier.isStatic(m.getModifiers()) || m.getParameterCount() > 0 || m.isSynthetic()) {
                continue;
            }
            String key = m.isAnnotationPresent(WithParentName.class) ? path
                    : path + "." + (m.isAnnotationPresent(WithName.class) ? m.getAnnotation(WithName.class).value()
                            : kebab(m.getName()));
            if (isGroup(m.getReturnType())) {
                collect(key, m.getReturnType(), keys);
            } else {
                keys.add(key);
            }
        }
    }

    /** A nested config group is one of our own interfaces; Optional, String, Duration and the like are leaves. */
    private static boolean isGroup(Class<?> type) {
        return type.isInterface() && type.getName().startsWith("io.leasehold.");
    }

    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** The environment variable SmallRye Config reads for a key: upper case, every non-alphanumeric as '_'. */
    static String envName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    static Properties applicationProperties() {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(APPLICATION_PROPERTIES)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    static int httpPort() {
        return Integer.parseInt(applicationProperties().getProperty("quarkus.http.port", "8080"));
    }

    /** SmallRye Health's endpoints under the non-application root, as application.properties (or the defaults) set them. */
    static String healthPath(String which) {
        Properties p = applicationProperties();
        String root = p.getProperty("quarkus.http.non-application-root-path", "q");
        String health = p.getProperty("quarkus.smallrye-health.root-path", "health");
        String sub = p.getProperty("quarkus.smallrye-health." + which + "-path", which.equals("liveness") ? "live" : "ready");
        return ("/" + root + "/" + health + "/" + sub).replaceAll("/+", "/");
    }

    /** Environment variables the mapping reads in its defaults, such as NATS_URL in ${NATS_URL:}. */
    static Set<String> variablesInDefaults() {
        Set<String> names = new TreeSet<>();
        defaults(LeaseholdConfig.class, names);
        return names;
    }

    private static void defaults(Class<?> group, Set<String> names) {
        for (Method m : group.getDeclaredMethods()) {
            WithDefault d = m.getAnnotation(WithDefault.class);
            if (d != null) {
                Matcher expr = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)").matcher(d.value());
                while (expr.find()) {
                    names.add(expr.group(1));
                }
            }
            if (isGroup(m.getReturnType())) {
                defaults(m.getReturnType(), names);
            }
        }
    }

    /** The health extension must be part of the build for those paths to answer at all. */
    static boolean healthExtensionPresent() {
        try {
            Class.forName("io.smallrye.health.SmallRyeHealthReporter");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** One JAX-RS resource method: its HTTP method, path template and query parameters. */
    record Endpoint(String method, String template, Set<String> queryParams) {
        boolean matches(String httpMethod, String path) {
            String regex = template.replaceAll("\\{[^}]+}", "[^/]+");
            return method.equals(httpMethod) && path.replaceAll("/+$", "").matches(regex);
        }
    }

    /** The resource methods of every class in io.leasehold.api, found in the compiled classes. */
    static List<Endpoint> endpoints() {
        List<Endpoint> found = new ArrayList<>();
        for (Class<?> type : apiClasses()) {
            Path base = type.getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            for (Method m : type.getDeclaredMethods()) {
                String http = httpMethod(m);
                if (http == null) {
                    continue;
                }
                Path sub = m.getAnnotation(Path.class);
                String template = ("/" + base.value() + "/" + (sub == null ? "" : sub.value())).replaceAll("/+", "/");
                template = template.length() > 1 ? template.replaceAll("/$", "") : template;
                Set<String> query = Arrays.stream(m.getParameters()).map(AppFacts::queryName)
                        .filter(q -> q != null).collect(Collectors.toCollection(TreeSet::new));
                found.add(new Endpoint(http, template, query));
            }
        }
        return found;
    }

    private static String queryName(Parameter p) {
        QueryParam q = p.getAnnotation(QueryParam.class);
        return q == null ? null : q.value();
    }

    private static String httpMethod(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod http = a.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value();
            }
        }
        return null;
    }

    private static List<Class<?>> apiClasses() {
        String pkg = DrainResource.class.getPackageName();
        try {
            java.nio.file.Path dir = java.nio.file.Path.of(DrainResource.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI()).resolve(pkg.replace('.', '/'));
            try (Stream<java.nio.file.Path> files = Files.list(dir)) {
                List<Class<?>> classes = new ArrayList<>();
                for (java.nio.file.Path f : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                    String simple = f.getFileName().toString().replaceAll("\\.class$", "");
                    classes.add(Class.forName(pkg + "." + simple));
                }
                return classes;
            }
        } catch (IOException | URISyntaxException | ClassNotFoundException e) {
            throw new IllegalStateException("could not list the classes of " + pkg, e);
        }
    }

    /** A duration as leasehold's own keys take it (30s, 2m, PT1M). */
    static Duration duration(String text) {
        return DurationConverter.parseDuration(text.trim());
    }

    /**
     * The configuration an instance would run with, given its environment and -D properties: the real mapping,
     * converters and defaults (so ${K_SINK:} and ${NATS_URL:} resolve), then the start-up check of the service.
     */
    static LeaseholdConfig effective(Map<String, String> env, Map<String, String> systemProperties) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withSources(new EnvConfigSource(env, 300),
                        new PropertiesConfigSource(systemProperties, "-D", 400))
                .withMapping(LeaseholdConfig.class)
                .build();
        LeaseholdConfig mapped = config.getConfigMapping(LeaseholdConfig.class);
        ConfigCheck.require(mapped);
        return mapped;
    }
}
