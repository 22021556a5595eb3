package io.leasehold.deploy;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** The YAML under deployments/: every document of every file, and the containers the Kubernetes kinds run. */
final class Manifests {

    static final Path ROOT = Path.of("deployments");
    static final Path KUBERNETES = ROOT.resolve("kubernetes");
    static final Path KNATIVE = ROOT.resolve("knative");
    static final Path KNATIVE_JETSTREAM = ROOT.resolve("knative-jetstream");
    static final Path COMPOSE = ROOT.resolve("compose.yaml");

    /** One YAML document and the file it came from. */
    record Doc(Path file, Map<String, Object> body) {
        String kind() {
            return Objects.toString(body.get("kind"), "");
        }

        String name() {
            return Objects.toString(at(body, "metadata", "name"), "");
        }

        @Override
        public String toString() {
            return file + " " + kind() + "/" + name();
        }
    }

    /** A container of a Deployment or Knative Service, with the documents of its folder to resolve references in. */
    record Container(Doc owner, Map<String, Object> podSpec, Map<String, Object> spec, List<Doc> folder) {
        @Override
        public String toString() {
            return owner + " container " + Objects.toString(spec.get("name"), "(unnamed)");
        }
    }

    private Manifests() {
    }

    static List<Path> files() {
        try (Stream<Path> walk = Files.walk(ROOT)) {
            return walk.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** All documents of a file; each must be a mapping (an empty document is a mistake, not a skip). */
    @SuppressWarnings("unchecked")
    static List<Doc> load(Path file) {
        List<Doc> docs = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (Object body : new Yaml(new LoaderOptions()).loadAll(in)) {
                assertTrue(body instanceof Map, file + ": every document must be a mapping, got " + body);
                docs.add(new Doc(file, (Map<String, Object>) body));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertTrue(!docs.isEmpty(), file + " holds no document");
        return docs;
    }

    static List<Doc> folder(Path dir) {
        return files().stream().filter(f -> f.getParent().equals(dir)).flatMap(f -> load(f).stream()).toList();
    }

    static Doc only(List<Doc> docs, String kind, String name) {
        return find(docs, kind, name).orElseGet(() -> fail("no " + kind + "/" + name + " among " + docs));
    }

    static Optional<Doc> find(List<Doc> docs, String kind, String name) {
        return docs.stream().filter(d -> d.kind().equals(kind) && d.name().equals(name)).findFirst();
    }

    static List<Container> containers(Path dir) {
        List<Doc> docs = folder(dir);
        List<Container> out = new ArrayList<>();
        for (Doc d : docs) {
            boolean workload = d.kind().equals("Deployment")
                    || d.kind().equals("Service") && str(d.body(), "apiVersion").startsWith("serving.knative.dev/");
            if (workload) {
                Map<String, Object> pod = map(at(d.body(), "spec", "template", "spec"), d + " spec.template.spec");
                for (Object c : list(pod.get("containers"), d + " containers")) {
                    out.add(new Container(d, pod, map(c, d + " container"), docs));
                }
            }
        }
        return out;
    }

    /**
     * The environment a container starts with: the image's ENV, then envFrom ConfigMaps, then env entries.
     * Secret and ConfigMap references resolve against the folder; a missing optional reference sets nothing.
     */
    static Map<String, String> environment(Container c, Map<String, String> imageEnv) {
        Map<String, String> env = new LinkedHashMap<>(imageEnv);
        env.putAll(declaredEnvironment(c));
        return env;
    }

    /** Only what the manifest itself sets (ConfigMap entries included). */
    static Map<String, String> declaredEnvironment(Container c) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Object from : list(c.spec().getOrDefault("envFrom", List.of()), c + " envFrom")) {
            Map<String, Object> ref = map(map(from, c + " envFrom").get("configMapRef"), c + " envFrom.configMapRef");
            referenced(c, "ConfigMap", ref).ifPresent(cm -> map(cm.body().get("data"), cm + " data")
                    .forEach((k, v) -> env.put(k, String.valueOf(v))));
        }
        for (Object entry : list(c.spec().getOrDefault("env", List.of()), c + " env")) {
            Map<String, Object> e = map(entry, c + " env entry");
            String name = str(e, "name");
            if (e.containsKey("value")) {
                env.put(name, String.valueOf(e.get("value")));
                continue;
            }
            Map<String, Object> secretRef = map(at(e, "valueFrom", "secretKeyRef"), c + " env " + name + " valueFrom");
            Optional<Doc> secret = referenced(c, "Secret", secretRef);
            if (secret.isEmpty()) {
                continue;
            }
            String key = str(secretRef, "key");
            Object plain = at(secret.get().body(), "stringData", key);
            Object encoded = at(secret.get().body(), "data", key);
            if (plain == null && encoded == null) {
                assertTrue(Boolean.TRUE.equals(secretRef.get("optional")), c + " env " + name + ": the Secret "
                        + secret.get().name() + " has no key '" + key + "' and the reference is not optional");
                continue;
            }
            env.put(name, plain != null ? String.valueOf(plain)
                    : new String(Base64.getDecoder().decode(String.valueOf(encoded)), StandardCharsets.UTF_8));
        }
        return env;
    }

    private static Optional<Doc> referenced(Container c, String kind, Map<String, Object> ref) {
        Optional<Doc> found = find(c.folder(), kind, str(ref, "name"));
        if (found.isEmpty()) {
            assertTrue(Boolean.TRUE.equals(ref.get("optional")),
                    c + " needs " + kind + "/" + ref.get("name") + ", which is not in its folder and not optional");
        }
        return found;
    }

    static Object at(Object node, String... path) {
        Object here = node;
        for (String step : path) {
            if (!(here instanceof Map<?, ?> m)) {
                return null;
            }
            here = m.get(step);
        }
        return here;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object node, String what) {
        assertNotNull(node, what + " is missing");
        assertTrue(node instanceof Map, what + " must be a mapping, got " + node);
        return (Map<String, Object>) node;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object node, String what) {
        assertNotNull(node, what + " is missing");
        assertTrue(node instanceof List, what + " must be a list, got " + node);
        return (List<Object>) node;
    }

    static String str(Map<String, Object> node, String key) {
        Object v = node.get(key);
        assertNotNull(v, key + " is missing in " + node);
        return String.valueOf(v);
    }
}
