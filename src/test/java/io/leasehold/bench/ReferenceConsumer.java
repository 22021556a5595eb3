package io.leasehold.bench;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;

/**
 * A file consumer other than leasehold that {@link DrainRateBenchmark} measures beside the drain, on a spool
 * of its own: it takes each file dropped into {@code pending/}, reads it, and moves it to {@code done/}.
 *
 * <p>The one such consumer is Apache Camel's ({@code CamelFileConsumer}, in {@code src/bench/java}). Camel is
 * declared only in the {@code benchmark} profile of the pom, which alone adds that source root (with
 * build-helper's {@code add-test-source}), so the normal build and CI neither fetch Camel nor compile against
 * it. This interface is the seam: the benchmark, compiled in every build, names the class once, in
 * {@link #camel}, and uses it through these methods.
 */
interface ReferenceConsumer extends AutoCloseable {

    /** The class in src/bench/java, compiled only under {@code -Pbenchmark}. */
    String CAMEL = "io.leasehold.bench.CamelFileConsumer";

    /** Starts taking files (the first look at pending/ follows at once); returns without waiting for one. */
    void start();

    /** Stops taking files, after those it has taken are finished. */
    void stop();

    /** Items whose payload it has read so far (each should be read once). */
    long itemsRead();

    /** How it is set up, for the figures' notes. */
    String describe();

    @Override
    void close();

    /** Apache Camel's file consumer on {@code spool}, working on {@code threads} threads (1: the consumer's own). */
    static ReferenceConsumer camel(Path spool, int threads) {
        try {
            return (ReferenceConsumer) Class.forName(CAMEL).getDeclaredConstructor(Path.class, int.class)
                    .newInstance(spool, threads);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(CAMEL + " is compiled only under -Pbenchmark (src/bench/java, with Camel"
                    + " on the test class path): run ./mvnw -B verify -Pbenchmark -Dit.test=DrainRateBenchmark", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("could not set up Camel's file consumer on " + spool, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
