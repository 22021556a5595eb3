package io.leasehold.nativeimage;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.tree.ClassNode;

/**
 * Every class in the native image's jars whose static state holds or draws randomness is initialised
 * at run time. Issue 7: the native build failed because {@code io.nats.client.support.RandomUtils}
 * holds a {@code SecureRandom} and was initialised at build time.
 */
class RandomHoldersIT {

    /**
     * Classes the scan finds that a native build of this service accepted at build time, each with why.
     * Evidence: the native build of issue 7 (GraalVM CE 25.0.2, Quarkus 3.33.2, 2026-11) passed with every
     * one of them present and only RandomUtils added to the run-time list. A dependency added or upgraded
     * changes what the scan finds, and then this test fails until someone looks.
     */
    private static final Map<String, String> ACCEPTED = Map.of(
            "io.netty.handler.ssl.BouncyCastleAlpnSslUtils", "netty's ALPN over BouncyCastle JSSE: never used here",
            "io.prometheus.client.Striped64", "simpleclient (0.x) internals: Micrometer uses the 1.x client",
            "io.quarkus.devservices.crossclassloader.runtime.RunningDevServicesRegistry", "dev services: dev/test only",
            "io.quarkus.vertx.http.runtime.QuarkusErrorHandler$LazyHolder",
            "Quarkus' own: the prefix of error ids, a UUID, not a Random; at worst one prefix for every binary",
            "io.smallrye.health.HealthStatus", "names anonymous health checks; every check here is named",
            "org.bouncycastle.jcajce.provider.drbg.DRBG$Default", "BouncyCastle provider: not installed here",
            "org.bouncycastle.jcajce.provider.drbg.DRBG$NonceAndIV", "BouncyCastle provider: not installed here",
            "org.bouncycastle.math.ec.tools.TraceOptimizer", "a BouncyCastle command-line tool",
            "org.bouncycastle.util.test.FixedSecureRandom", "BouncyCastle's test helper",
            // Came with quarkus-oidc; not yet through a native build (no GraalVM where it was added).
            "org.jose4j.jwx.JsonWebStructure", "jose4j's default ProviderContext: its SecureRandom stays null (only"
                    + " setSecureRandom sets it, never called here); jose4j makes a new one per use at run time");

    @Test
    void everyRandomHolderIsInitialisedAtRunTime() {
        NativeSources sources = NativeSources.load();
        List<ClassNode> classes = new ArrayList<>();
        for (Path jar : sources.jars()) {
            classes.addAll(ClassFiles.inJar(jar));
        }
        Map<String, String> found = new RandomHolders(classes).find();
        Set<String> runTime = sources.runTimeInitialised();
        // The scan and the list it is checked against must both be alive, or the test proves nothing.
        assertTrue(found.containsKey("io.leasehold.core.Generation"), "the scan found " + found.keySet());
        assertTrue(runTime.contains("io.leasehold.core.Generation") && runTime.size() > 10,
                "run-time initialised: " + runTime);

        Map<String, String> atBuildTime = new TreeMap<>();
        found.forEach((name, why) -> {
            if (!initialisedAtRunTime(name, runTime) && !ACCEPTED.containsKey(name)) {
                atBuildTime.put(name, why);
            }
        });
        assertTrue(atBuildTime.isEmpty(), "initialised at build time although their static state holds randomness; "
                + "add them to quarkus.native.additional-build-args --initialize-at-run-time: " + atBuildTime);
        List<String> stale = ACCEPTED.keySet().stream().filter(n -> !found.containsKey(n)).sorted().toList();
        assertTrue(stale.isEmpty(), "ACCEPTED names classes the scan no longer finds; remove them: " + stale);
    }

    /** Named itself, or a package that contains it, in the run-time list. */
    private static boolean initialisedAtRunTime(String name, Set<String> runTime) {
        for (String entry : runTime) {
            if (name.equals(entry) || name.startsWith(entry + ".")) {
                return true;
            }
        }
        return false;
    }
}
