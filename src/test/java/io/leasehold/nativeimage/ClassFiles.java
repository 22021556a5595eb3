package io.leasehold.nativeimage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/** Class files read with ASM, from a directory of classes or from jars; nothing is loaded or initialised. */
final class ClassFiles {

    private ClassFiles() {
    }

    /** Every class under {@code dir} (e.g. target/classes), with method bodies. */
    static List<ClassNode> inDirectory(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            List<ClassNode> out = new ArrayList<>();
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                try (InputStream in = Files.newInputStream(file)) {
                    out.add(read(in));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read classes under " + dir, e);
        }
    }

    /** Every class in one jar, multi-release variants left out (the base version is what is analysed). */
    static List<ClassNode> inJar(Path jar) {
        List<ClassNode> out = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/") && !name.endsWith("module-info.class")) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        out.add(read(in));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        return out;
    }

    static ClassNode read(InputStream in) throws IOException {
        ClassNode node = new ClassNode();
        new ClassReader(in).accept(node, ClassReader.SKIP_FRAMES);
        return node;
    }

    /** {@code io/leasehold/Foo$Bar} → {@code io.leasehold.Foo$Bar}, the name native-image configuration uses. */
    static String binaryName(String internalName) {
        return internalName.replace('/', '.');
    }
}
