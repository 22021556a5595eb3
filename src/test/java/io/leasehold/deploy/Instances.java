package io.leasehold.deploy;

import static io.leasehold.deploy.Manifests.list;
import static io.leasehold.deploy.Manifests.map;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.leasehold.config.LeaseholdConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every leasehold instance the deployments start, however declared, seen the same way. */
final class Instances {

    /**
     * One instance: the environment its manifest sets, the one it runs with (the image's ENV underneath), its
     * -D properties, its mount paths and container ports.
     */
    record Instance(String where, Map<String, String> declared, Map<String, String> env, Map<String, String> jvmProps,
            List<String> mounts, List<Integer> ports) {
        LeaseholdConfig config() {
            return AppFacts.effective(env, jvmProps);
        }

        LeaseholdConfig config(Map<String, String> injected) {
            Map<String, String> all = new LinkedHashMap<>(env);
            all.putAll(injected);
            return AppFacts.effective(all, jvmProps);
        }

        @Override
        public String toString() {
            return where;
        }
    }

    private Instances() {
    }

    static List<Instance> all() {
        List<Instance> out = new ArrayList<>(kubernetes(Manifests.KUBERNETES));
        out.addAll(kubernetes(Manifests.KNATIVE));
        out.addAll(kubernetes(Manifests.KNATIVE_JETSTREAM));
        out.addAll(compose());
        return out;
    }

    /** Deployments and Knative Services; both run the image built from Dockerfile.jvm. */
    static List<Instance> kubernetes(java.nio.file.Path dir) {
        Map<String, String> image = Dockerfile.read(Dockerfile.JVM).env();
        List<Instance> out = new ArrayList<>();
        for (Manifests.Container c : Manifests.containers(dir)) {
            Map<String, String> env = Manifests.environment(c, image);
            Map<String, String> props = systemProperties(env.get("JAVA_OPTS_APPEND"));
            for (String field : List.of("command", "args")) {
                for (Object word : list(c.spec().getOrDefault(field, List.of()), c + " " + field)) {
                    props.putAll(systemProperties(String.valueOf(word)));
                }
            }
            List<String> mounts = new ArrayList<>();
            for (Object m : list(c.spec().getOrDefault("volumeMounts", List.of()), c + " volumeMounts")) {
                mounts.add(String.valueOf(map(m, c + " volumeMount").get("mountPath")));
            }
            List<Integer> ports = new ArrayList<>();
            for (Object p : list(c.spec().getOrDefault("ports", List.of()), c + " ports")) {
                ports.add(((Number) map(p, c + " port").get("containerPort")).intValue());
            }
            out.add(new Instance(c.toString(), Manifests.declaredEnvironment(c), env, props, mounts, ports));
        }
        return out;
    }

    /** The compose services built from the JVM Dockerfile (the others, such as nats, are not leasehold). */
    static List<Instance> compose() {
        Map<String, Object> compose = Manifests.load(Manifests.COMPOSE).get(0).body();
        List<Instance> out = new ArrayList<>();
        map(compose.get("services"), "services").forEach((name, node) -> {
            Map<String, Object> service = map(node, "service " + name);
            if (!service.containsKey("build")) {
                return;
            }
            String where = Manifests.COMPOSE + " service " + name;
            String dockerfile = String.valueOf(Manifests.at(service, "build", "dockerfile"));
            assertEquals(Dockerfile.JVM.toString(), dockerfile, where + " must build the JVM image");
            Map<String, String> declared = composeEnvironment(service.get("environment"), where);
            Map<String, String> env = new LinkedHashMap<>(Dockerfile.read(Dockerfile.JVM).env());
            env.putAll(declared);
            List<String> mounts = new ArrayList<>();
            for (Object v : list(service.getOrDefault("volumes", List.of()), where + " volumes")) {
                String[] parts = String.valueOf(v).split(":");
                mounts.add(parts[1]);
            }
            List<Integer> ports = new ArrayList<>();
            for (Object p : list(service.getOrDefault("ports", List.of()), where + " ports")) {
                String[] parts = String.valueOf(p).split(":");
                ports.add(Integer.parseInt(parts[parts.length - 1].replaceAll("/.*", "")));
            }
            out.add(new Instance(where, declared, env, systemProperties(env.get("JAVA_OPTS_APPEND")), mounts, ports));
        });
        return out;
    }

    /** Compose takes environment as a mapping or as a list of NAME=value. */
    static Map<String, String> composeEnvironment(Object node, String where) {
        Map<String, String> env = new LinkedHashMap<>();
        if (node instanceof Map<?, ?> m) {
            m.forEach((k, v) -> env.put(String.valueOf(k), String.valueOf(v)));
        } else if (node != null) {
            for (Object entry : list(node, where + " environment")) {
                String[] kv = String.valueOf(entry).split("=", 2);
                env.put(kv[0], kv.length > 1 ? kv[1] : "");
            }
        }
        return env;
    }

    /** The -Dkey=value words of a command line. */
    static Map<String, String> systemProperties(String commandLine) {
        Map<String, String> props = new LinkedHashMap<>();
        if (commandLine == null) {
            return props;
        }
        for (String word : commandLine.trim().split("\\s+")) {
            if (word.startsWith("-D") && word.length() > 2) {
                String[] kv = word.substring(2).split("=", 2);
                props.put(kv[0], kv.length > 1 ? kv[1] : "");
            }
        }
        return props;
    }
}
