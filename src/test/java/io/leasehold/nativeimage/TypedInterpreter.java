package io.leasehold.nativeimage;

import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.analysis.AnalyzerException;
import org.objectweb.asm.tree.analysis.BasicInterpreter;
import org.objectweb.asm.tree.analysis.BasicValue;

/**
 * ASM's basic interpreter, but keeping the static type of every reference (which the basic one folds
 * into "a reference") and which class a {@code Foo.class} constant names. Where two paths meet with
 * different types the value becomes {@code Object}: unknown, never guessed.
 */
final class TypedInterpreter extends BasicInterpreter {

    static final Type OBJECT = Type.getObjectType("java/lang/Object");

    /** A {@code Foo.class} constant: a {@code Class} whose referent is known. */
    static final class ClassConstant extends BasicValue {
        final Type named;

        ClassConstant(Type named) {
            super(Type.getObjectType("java/lang/Class"));
            this.named = named;
        }
    }

    TypedInterpreter() {
        super(ASM9);
    }

    @Override
    public BasicValue newValue(Type type) {
        if (type != null && (type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY)) {
            return new BasicValue(type);
        }
        return super.newValue(type);
    }

    @Override
    public BasicValue newOperation(AbstractInsnNode insn) throws AnalyzerException {
        if (insn instanceof LdcInsnNode ldc && ldc.cst instanceof Type named && named.getSort() == Type.OBJECT) {
            return new ClassConstant(named);
        }
        return super.newOperation(insn);
    }

    @Override
    public BasicValue merge(BasicValue a, BasicValue b) {
        if (a.equals(b) && a.getClass() == b.getClass()) {
            return a;
        }
        if (a.isReference() && b.isReference()) {
            return new BasicValue(OBJECT);
        }
        return super.merge(a, b);
    }
}
