package io.leasehold.nativeimage;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Finds classes whose static initialiser makes randomness part of the class's state: it stores a
 * {@code Random}/{@code SecureRandom}/{@code SplittableRandom} (or an object holding one) in a static
 * field, or it draws from one (as {@code io.nats.client.NUID} does for its prefix). native-image
 * initialises classes at build time unless told otherwise, and then either refuses to build ("an
 * instance of Random in the image heap") or, worse, bakes one seed into every binary.
 *
 * <p>What it does not see: randomness reached through another class's methods, or stored under a
 * static field of a wider type ({@code Object}). The static initialiser and the class's own methods
 * it calls (its constructors included) are followed.
 */
final class RandomHolders {

    private static final Set<String> RANDOM_ROOTS = Set.of("java/util/Random", "java/security/SecureRandom",
            "java/util/SplittableRandom", "java/util/random/RandomGenerator");
    private static final String SUBSTITUTION = "Lcom/oracle/svm/core/annotate/TargetClass;";
    private static final int HOLD_DEPTH = 3;

    private final Map<String, ClassNode> classes = new HashMap<>();
    private final Map<String, Boolean> randomType = new HashMap<>();

    RandomHolders(List<ClassNode> all) {
        for (ClassNode c : all) {
            classes.putIfAbsent(c.name, c);
        }
    }

    /** Each offending class (binary name) with what it does. */
    Map<String, String> find() {
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> holderFields = new HashSet<>();
        for (ClassNode c : classes.values()) {
            if (isSubstitution(c)) {
                continue; // a native-image substitution: its fields alias or reset the target's
            }
            Set<MethodNode> init = staticInit(c);
            for (FieldNode f : c.fields) {
                if ((f.access & Opcodes.ACC_STATIC) != 0 && holdsRandom(Type.getType(f.desc), HOLD_DEPTH)
                        && assigns(init, c.name, f.name)) {
                    holderFields.add(c.name + "." + f.name);
                    out.putIfAbsent(ClassFiles.binaryName(c.name), "static " + f.name + " : "
                            + Type.getType(f.desc).getClassName() + " set while the class initialises");
                }
            }
        }
        for (ClassNode c : classes.values()) {
            if (isSubstitution(c) || out.containsKey(ClassFiles.binaryName(c.name))) {
                continue;
            }
            String use = drawsRandomness(staticInit(c), holderFields);
            if (use != null) {
                out.put(ClassFiles.binaryName(c.name), "its static initialiser " + use);
            }
        }
        return out;
    }

    private static boolean isSubstitution(ClassNode c) {
        List<AnnotationNode> annotations = c.invisibleAnnotations == null ? List.of() : c.invisibleAnnotations;
        List<AnnotationNode> visible = c.visibleAnnotations == null ? List.of() : c.visibleAnnotations;
        return annotations.stream().anyMatch(a -> a.desc.equals(SUBSTITUTION))
                || visible.stream().anyMatch(a -> a.desc.equals(SUBSTITUTION));
    }

    /** {@code <clinit>} and every method of the same class it calls, directly or through each other. */
    private static Set<MethodNode> staticInit(ClassNode c) {
        Map<String, MethodNode> byKey = new HashMap<>();
        for (MethodNode m : c.methods) {
            byKey.put(m.name + m.desc, m);
        }
        Set<MethodNode> reached = new HashSet<>();
        Deque<MethodNode> todo = new ArrayDeque<>();
        MethodNode clinit = byKey.get("<clinit>()V");
        if (clinit != null) {
            todo.add(clinit);
        }
        while (!todo.isEmpty()) {
            MethodNode m = todo.poll();
            if (!reached.add(m)) {
                continue;
            }
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof MethodInsnNode call && call.owner.equals(c.name)) {
                    MethodNode callee = byKey.get(call.name + call.desc);
                    if (callee != null) {
                        todo.add(callee);
                    }
                }
            }
        }
        return reached;
    }

    private static boolean assigns(Set<MethodNode> init, String owner, String field) {
        for (MethodNode m : init) {
            for (AbstractInsnNode insn : m.instructions) {
                if (insn.getOpcode() == Opcodes.PUTSTATIC && insn instanceof FieldInsnNode put
                        && put.owner.equals(owner) && put.name.equals(field)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** How the static initialiser draws randomness, or null. */
    private String drawsRandomness(Set<MethodNode> init, Set<String> holderFields) {
        for (MethodNode m : init) {
            for (AbstractInsnNode insn : m.instructions) {
                if (insn instanceof FieldInsnNode get && insn.getOpcode() == Opcodes.GETSTATIC
                        && holderFields.contains(get.owner + "." + get.name)) {
                    return "reads " + ClassFiles.binaryName(get.owner) + "." + get.name;
                }
                if (insn instanceof MethodInsnNode call && (isRandomType(call.owner)
                        || call.owner.equals("java/util/UUID") && call.name.equals("randomUUID")
                        || call.owner.equals("java/lang/Math") && call.name.equals("random"))) {
                    return "calls " + ClassFiles.binaryName(call.owner) + "." + call.name;
                }
            }
        }
        return null;
    }

    /** A Random, or an object that holds one in its own (or its superclasses') instance fields. */
    private boolean holdsRandom(Type type, int depth) {
        if (type.getSort() != Type.OBJECT) {
            return false;
        }
        if (isRandomType(type.getInternalName())) {
            return true;
        }
        if (depth == 0) {
            return false;
        }
        for (String t = type.getInternalName(); t != null && classes.containsKey(t); t = classes.get(t).superName) {
            for (FieldNode f : classes.get(t).fields) {
                if ((f.access & Opcodes.ACC_STATIC) == 0 && holdsRandom(Type.getType(f.desc), depth - 1)) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean isRandomType(String internalName) {
        return randomType.computeIfAbsent(internalName, name -> {
            String t = name;
            for (int i = 0; t != null && i < 32; i++) {
                if (RANDOM_ROOTS.contains(t)) {
                    return true;
                }
                t = superOf(t);
            }
            return false;
        });
    }

    private String superOf(String internalName) {
        ClassNode node = classes.get(internalName);
        if (node != null) {
            return node.superName;
        }
        if (internalName.startsWith("java/") || internalName.startsWith("javax/") || internalName.startsWith("sun/")) {
            try {
                Class<?> c = Class.forName(ClassFiles.binaryName(internalName), false,
                        ClassLoader.getPlatformClassLoader());
                return c.getSuperclass() == null ? null : Type.getInternalName(c.getSuperclass());
            } catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
        }
        return null; // a library type outside the image: not ours to judge
    }
}
