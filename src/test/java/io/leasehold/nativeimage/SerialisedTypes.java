package io.leasehold.nativeimage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.signature.SignatureReader;
import org.objectweb.asm.signature.SignatureVisitor;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Analyzer;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicValue;
import org.objectweb.asm.tree.analysis.Frame;

/**
 * Finds, in compiled classes, every type handed to JSON serialisation: the declared return types of
 * REST resource methods, exception mappers and filters; the static type of every argument given to
 * {@code Response}/{@code RestResponse} as an entity; and every value or {@code Foo.class} given to
 * Jackson's {@code ObjectMapper}. A place whose type cannot be known from the code (an {@code Object},
 * an interface, a {@code Map}) is reported as opaque, so a reader has to say what flows there.
 */
final class SerialisedTypes {

    /** One place where a value of {@code type} is serialised. */
    record Site(String type, String where) {
    }

    private static final Set<String> ENDPOINT_ANNOTATIONS = Set.of("Ljakarta/ws/rs/GET;", "Ljakarta/ws/rs/POST;",
            "Ljakarta/ws/rs/PUT;", "Ljakarta/ws/rs/DELETE;", "Ljakarta/ws/rs/PATCH;", "Ljakarta/ws/rs/HEAD;",
            "Ljakarta/ws/rs/OPTIONS;", "Lorg/jboss/resteasy/reactive/server/ServerExceptionMapper;",
            "Lorg/jboss/resteasy/reactive/server/ServerRequestFilter;",
            "Lorg/jboss/resteasy/reactive/server/ServerResponseFilter;");
    private static final Set<String> ENTITY_OWNERS = Set.of("jakarta/ws/rs/core/Response",
            "jakarta/ws/rs/core/Response$ResponseBuilder", "org/jboss/resteasy/reactive/RestResponse",
            "org/jboss/resteasy/reactive/RestResponse$ResponseBuilder");
    private static final Set<String> JACKSON_OWNERS = Set.of("com/fasterxml/jackson/databind/ObjectMapper",
            "com/fasterxml/jackson/databind/ObjectWriter", "com/fasterxml/jackson/databind/ObjectReader");

    /** ObjectMapper, ObjectWriter, ObjectReader, and the format mappers built on ObjectMapper (JsonMapper...). */
    private static boolean isJacksonMapper(String owner) {
        return JACKSON_OWNERS.contains(owner)
                || owner.startsWith("com/fasterxml/jackson/") && owner.endsWith("Mapper");
    }

    final List<Site> known = new ArrayList<>();
    final List<Site> opaque = new ArrayList<>();
    private final String appPackage;

    SerialisedTypes(String appPackage) {
        this.appPackage = appPackage.replace('.', '/') + "/";
    }

    SerialisedTypes scan(List<ClassNode> classes) {
        for (ClassNode c : classes) {
            for (MethodNode m : c.methods) {
                String where = ClassFiles.binaryName(c.name) + "." + m.name;
                if (isEndpoint(m)) {
                    String signature = m.signature != null ? m.signature : m.desc;
                    for (String type : typesIn(signature, true)) {
                        known.add(new Site(type, where + " (declared answer)"));
                    }
                    if (answersObject(signature)) {
                        opaque.add(new Site("java.lang.Object", where + " (declared answer)"));
                    }
                }
                callSites(c, m, where);
            }
        }
        return this;
    }

    /** An answer declared as {@code Object} (or {@code Uni<Object>}...): what it carries is not in the code. */
    private static boolean answersObject(String signature) {
        boolean[] found = {false};
        new SignatureReader(signature).accept(new SignatureVisitor(Opcodes.ASM9) {
            @Override
            public SignatureVisitor visitReturnType() {
                return new SignatureVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitClassType(String name) {
                        found[0] |= name.equals("java/lang/Object");
                    }
                };
            }
        });
        return found[0];
    }

    private static boolean isEndpoint(MethodNode m) {
        List<AnnotationNode> annotations = m.visibleAnnotations == null ? List.of() : m.visibleAnnotations;
        return annotations.stream().anyMatch(a -> ENDPOINT_ANNOTATIONS.contains(a.desc));
    }

    private void callSites(ClassNode c, MethodNode m, String where) {
        if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return;
        }
        Frame<BasicValue>[] frames;
        try {
            frames = new Analyzer<>(new TypedInterpreter()).analyze(c.name, m);
        } catch (AnalyzerException e) {
            throw new IllegalStateException("cannot analyse " + where, e);
        }
        AbstractInsnNode[] insns = m.instructions.toArray();
        for (int i = 0; i < insns.length; i++) {
            if (!(insns[i] instanceof MethodInsnNode call) || frames[i] == null) {
                continue;
            }
            boolean entity = ENTITY_OWNERS.contains(call.owner);
            boolean jackson = isJacksonMapper(call.owner) && (call.name.startsWith("write")
                    || call.name.startsWith("read") || call.name.equals("convertValue")
                    || call.name.equals("valueToTree") || call.name.equals("treeToValue")
                    || call.name.equals("updateValue"));
            if (!entity && !jackson) {
                continue;
            }
            Type[] params = Type.getArgumentTypes(call.desc);
            Frame<BasicValue> frame = frames[i];
            int first = frame.getStackSize() - params.length;
            for (int p = 0; p < params.length; p++) {
                BasicValue arg = frame.getStack(first + p);
                String site = where + " → " + call.name + "(…)";
                if (params[p].equals(TypedInterpreter.OBJECT)) {
                    classify(arg.getType(), site);
                } else if (jackson && params[p].getInternalName().equals("java/lang/Class")) {
                    if (arg instanceof TypedInterpreter.ClassConstant constant) {
                        classify(constant.named, site);
                    } else {
                        opaque.add(new Site("a Class not known from the code", site));
                    }
                }
            }
        }
    }

    private void classify(Type type, String site) {
        if (type.getSort() == Type.ARRAY) {
            if (type.getElementType().getSort() != Type.OBJECT) {
                return; // byte[] and other primitive arrays need no reflection
            }
            type = type.getElementType();
        }
        String name = type.getInternalName();
        if (name.equals("java/lang/Object") || name.startsWith("java/util/") && !name.equals("java/util/UUID")) {
            opaque.add(new Site(ClassFiles.binaryName(name), site));
        } else if (name.startsWith(appPackage)) {
            known.add(new Site(ClassFiles.binaryName(name), site));
        }
        // Other library types (String, Instant, Jackson's own trees) are serialised without reflection.
    }

    private static boolean isGetter(MethodNode m) {
        return (m.access & Opcodes.ACC_PUBLIC) != 0 && (m.access & Opcodes.ACC_STATIC) == 0
                && m.desc.startsWith("()") && !m.desc.endsWith(")V")
                && (m.name.startsWith("get") || m.name.startsWith("is"));
    }

    /** The application's class types named anywhere in a (generic) type signature. */
    private Set<String> typesIn(String signature, boolean methodReturnOnly) {
        Set<String> out = new LinkedHashSet<>();
        SignatureVisitor collect = new SignatureVisitor(Opcodes.ASM9) {
            @Override
            public void visitClassType(String name) {
                if (name.startsWith(appPackage)) {
                    out.add(ClassFiles.binaryName(name));
                }
            }
        };
        SignatureReader reader = new SignatureReader(signature);
        if (methodReturnOnly) {
            reader.accept(new SignatureVisitor(Opcodes.ASM9) {
                @Override
                public SignatureVisitor visitReturnType() {
                    return collect;
                }
            });
        } else {
            reader.acceptType(collect);
        }
        return out;
    }

    /**
     * The types that must be reflectable for {@code roots} to be written: the roots and, through their
     * instance fields (record components included), every application type they hold.
     */
    Map<String, String> closure(Map<String, String> roots, Map<String, ClassNode> byName) {
        Map<String, String> out = new LinkedHashMap<>();
        List<Map.Entry<String, String>> todo = new ArrayList<>(roots.entrySet());
        while (!todo.isEmpty()) {
            Map.Entry<String, String> next = todo.remove(todo.size() - 1);
            if (out.putIfAbsent(next.getKey(), next.getValue()) != null) {
                continue;
            }
            ClassNode node = byName.get(next.getKey());
            if (node == null) {
                continue;
            }
            for (FieldNode f : node.fields) {
                if ((f.access & Opcodes.ACC_STATIC) != 0) {
                    continue;
                }
                for (String held : typesIn(f.signature != null ? f.signature : f.desc, false)) {
                    todo.add(Map.entry(held, "held by " + next.getKey() + "." + f.name));
                }
            }
            // Jackson also writes what public getters answer, whether or not a field holds it.
            for (MethodNode m : node.methods) {
                if (isGetter(m)) {
                    String signature = m.signature != null ? m.signature : m.desc;
                    for (String held : typesIn(signature, true)) {
                        todo.add(Map.entry(held, "answered by " + next.getKey() + "." + m.name + "()"));
                    }
                }
            }
        }
        return out;
    }
}
