package io.leasehold.directory.linux;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * {@link LinuxCalls} through the foreign-function API of Java 22 and later.
 *
 * <p>The project is built for Java 17, so the API is reached by reflection once, at {@link #load}, and the
 * calls go through method handles typed with {@code Object} (inlined by the JIT like direct calls). Where it
 * cannot be had (Java 17 to 21, a native binary built without it, another OS), {@link #load} answers empty
 * and the caller keeps the JDK's way. No state is static: a native build never initialises any of it.
 * Each call answers 0 or the call's errno.
 */
final class ForeignCalls implements LinuxCalls {

    private static final Logger LOG = Logger.getLogger(ForeignCalls.class);

    private static final int AT_FDCWD = -100;
    private static final int RENAME_NOREPLACE = 1;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;
    private static final int O_CLOEXEC = 0x80000;
    /** PATH_MAX with its NUL: a longer path is refused as the kernel would refuse it. */
    private static final int PATH_BYTES = 4096;

    private final MethodHandle renameat2;
    private final MethodHandle utimensat;
    private final MethodHandle open;
    private final MethodHandle syncfs;
    private final MethodHandle close;
    /** Set by the probe: syncfs answers every error of its write-back here (Linux 5.17 and later). */
    private boolean syncsFileSystems;
    /** O_DIRECTORY, whose value differs between architectures; 0 where this class does not know it. */
    private final int oDirectory = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 0x10000;
        case "aarch64" -> 0x4000;
        default -> 0;
    };
    private final MethodHandle copy;
    private final MethodHandle getInt;
    private final MethodHandle setLong;
    private final MethodHandle allocate;
    private final MethodHandle newArena;
    private final Object javaByte;
    private final Object javaInt;
    private final Object javaLong;
    private final long errnoOffset;
    private final long stateBytes;
    private final Charset names = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
    private final ThreadLocal<Frame> frames = ThreadLocal.withInitial(this::frame);

    /** The calls, or empty where they cannot be had (the reason logged at debug). */
    static Optional<LinuxCalls> load() {
        if (!System.getProperty("os.name", "").equals("Linux") || Runtime.version().feature() < 22
                || System.getProperty("org.graalvm.nativeimage.imagecode") != null) {
            return Optional.empty(); // a native image is built without the foreign-function API (docs/native.md)
        }
        try {
            ForeignCalls calls = new ForeignCalls();
            calls.probe();
            return Optional.of(calls);
        } catch (Throwable e) { // a JDK, a native image or a libc without them: the JDK's way is kept
            LOG.debugf("renameat2, utimensat and syncfs through the foreign-function API are not available: %s", e);
            return Optional.empty();
        }
    }

    private ForeignCalls() throws ReflectiveOperationException {
        Class<?> linkerType = Class.forName("java.lang.foreign.Linker");
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        Class<?> layout = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayout = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> descriptor = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> option = Class.forName("java.lang.foreign.Linker$Option");
        Class<?> pathElement = Class.forName("java.lang.foreign.MemoryLayout$PathElement");
        Class<?> arenaType = Class.forName("java.lang.foreign.Arena");
        Object linker = linkerType.getMethod("nativeLinker").invoke(null);
        Object libc = linkerType.getMethod("defaultLookup").invoke(linker);
        javaByte = valueLayout.getField("JAVA_BYTE").get(null);
        javaInt = valueLayout.getField("JAVA_INT").get(null);
        javaLong = valueLayout.getField("JAVA_LONG").get(null);
        Object address = valueLayout.getField("ADDRESS").get(null);

        // errno as the call left it, before the JVM's own calls can change it.
        Object capture = option.getMethod("captureCallState", String[].class).invoke(null, (Object) new String[] {"errno"});
        Object state = option.getMethod("captureStateLayout").invoke(null);
        Object errno = array(pathElement, pathElement.getMethod("groupElement", String.class).invoke(null, "errno"));
        errnoOffset = (long) layout.getMethod("byteOffset", errno.getClass()).invoke(state, errno);
        stateBytes = (long) layout.getMethod("byteSize").invoke(state);

        Method of = descriptor.getMethod("of", layout, layout.arrayType());
        Method find = Class.forName("java.lang.foreign.SymbolLookup").getMethod("find", String.class);
        Object options = array(option, capture);
        Method downcall = linkerType.getMethod("downcallHandle", segment, descriptor, options.getClass());
        renameat2 = ((MethodHandle) downcall.invoke(linker, ((Optional<?>) find.invoke(libc, "renameat2")).orElseThrow(),
                of.invoke(null, javaInt, array(layout, javaInt, address, javaInt, address, javaInt)), options))
                .asType(MethodType.methodType(int.class, Object.class, int.class, Object.class, int.class, Object.class,
                        int.class));
        utimensat = ((MethodHandle) downcall.invoke(linker, ((Optional<?>) find.invoke(libc, "utimensat")).orElseThrow(),
                of.invoke(null, javaInt, array(layout, javaInt, address, address, javaInt)), options))
                .asType(MethodType.methodType(int.class, Object.class, int.class, Object.class, Object.class, int.class));
        // open(2) is variadic; without O_CREAT it takes no mode, so two fixed arguments are the call.
        open = ((MethodHandle) downcall.invoke(linker, ((Optional<?>) find.invoke(libc, "open")).orElseThrow(),
                of.invoke(null, javaInt, array(layout, address, javaInt)), options))
                .asType(MethodType.methodType(int.class, Object.class, Object.class, int.class));
        syncfs = ((MethodHandle) downcall.invoke(linker, ((Optional<?>) find.invoke(libc, "syncfs")).orElseThrow(),
                of.invoke(null, javaInt, array(layout, javaInt)), options))
                .asType(MethodType.methodType(int.class, Object.class, int.class));
        close = ((MethodHandle) downcall.invoke(linker, ((Optional<?>) find.invoke(libc, "close")).orElseThrow(),
                of.invoke(null, javaInt, array(layout, javaInt)), options))
                .asType(MethodType.methodType(int.class, Object.class, int.class));

        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        copy = lookup.findStatic(segment, "copy", MethodType.methodType(void.class, Object.class, int.class, segment,
                valueLayout, long.class, int.class))
                .asType(MethodType.methodType(void.class, Object.class, int.class, Object.class, Object.class,
                        long.class, int.class));
        getInt = lookup.findVirtual(segment, "get", MethodType.methodType(int.class,
                Class.forName("java.lang.foreign.ValueLayout$OfInt"), long.class))
                .asType(MethodType.methodType(int.class, Object.class, Object.class, long.class));
        setLong = lookup.findVirtual(segment, "set", MethodType.methodType(void.class,
                Class.forName("java.lang.foreign.ValueLayout$OfLong"), long.class, long.class))
                .asType(MethodType.methodType(void.class, Object.class, Object.class, long.class, long.class));
        // An arena per thread's frame: its memory is freed by the GC once the thread and its frame are gone
        // (one arena for all would hold every frame ever made, a worker pool's short-lived threads included).
        newArena = lookup.findStatic(arenaType, "ofAuto", MethodType.methodType(arenaType))
                .asType(MethodType.methodType(Object.class));
        allocate = lookup.findVirtual(arenaType, "allocate", MethodType.methodType(segment, long.class, long.class))
                .asType(MethodType.methodType(Object.class, Object.class, long.class, long.class));
    }

    @Override
    public int renameNoReplace(Path from, Path to) {
        Frame f = frames.get();
        try {
            if (!f.put(f.first, from) || !f.put(f.second, to)) {
                return ENAMETOOLONG;
            }
            int rc = (int) renameat2.invokeExact(f.state, AT_FDCWD, f.first, AT_FDCWD, f.second, RENAME_NOREPLACE);
            return rc == 0 ? 0 : (int) getInt.invokeExact(f.state, javaInt, errnoOffset);
        } catch (Throwable e) {
            throw new IllegalStateException("renameat2 through the foreign-function API", e);
        }
    }

    @Override
    public int setTimesNoFollow(Path file, Instant time) {
        Frame f = frames.get();
        try {
            if (!f.put(f.first, file)) {
                return ENAMETOOLONG;
            }
            for (long at = 0; at < 32; at += 16) { // atime, then mtime: {seconds, nanoseconds} each
                setLong.invokeExact(f.times, javaLong, at, time.getEpochSecond());
                setLong.invokeExact(f.times, javaLong, at + 8, (long) time.getNano());
            }
            int rc = (int) utimensat.invokeExact(f.state, AT_FDCWD, f.first, f.times, AT_SYMLINK_NOFOLLOW);
            return rc == 0 ? 0 : (int) getInt.invokeExact(f.state, javaInt, errnoOffset);
        } catch (Throwable e) {
            throw new IllegalStateException("utimensat through the foreign-function API", e);
        }
    }

    @Override
    public boolean syncsFileSystems() {
        return syncsFileSystems;
    }

    @Override
    public int openDirectory(Path dir) {
        Frame f = frames.get();
        try {
            if (!f.put(f.first, dir)) {
                return -ENAMETOOLONG;
            }
            int fd = (int) open.invokeExact(f.state, f.first, oDirectory | O_CLOEXEC); // O_RDONLY is 0
            return fd >= 0 ? fd : -(int) getInt.invokeExact(f.state, javaInt, errnoOffset);
        } catch (Throwable e) {
            throw new IllegalStateException("open through the foreign-function API", e);
        }
    }

    @Override
    public int syncFileSystem(int fd) {
        return call(syncfs, fd, "syncfs");
    }

    @Override
    public int close(int fd) {
        return call(close, fd, "close");
    }

    private int call(MethodHandle handle, int fd, String name) {
        Frame f = frames.get();
        try {
            int rc = (int) handle.invokeExact(f.state, fd);
            return rc == 0 ? 0 : (int) getInt.invokeExact(f.state, javaInt, errnoOffset);
        } catch (Throwable e) {
            throw new IllegalStateException(name + " through the foreign-function API", e);
        }
    }

    /**
     * syncfs of no descriptor must answer EBADF, O_DIRECTORY be known for this architecture, and the kernel be
     * 5.17 or later: since 5.8 syncfs answers the page write-back errors since its descriptor was opened, and
     * only since 5.17 the filesystem's own (a journal commit or a device flush that failed). Else batches keep
     * an fsync per payload.
     */
    private boolean syncfsReports() {
        String[] version = System.getProperty("os.version", "").split("[.-]");
        try {
            int major = Integer.parseInt(version[0]);
            int minor = version.length > 1 ? Integer.parseInt(version[1]) : 0;
            return oDirectory != 0 && (major > 5 || (major == 5 && minor >= 17)) && syncFileSystem(-1) == EBADF;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** One call of each on names that do not exist: a libc or kernel without them fails here, not on an item. */
    private void probe() {
        syncsFileSystems = syncfsReports();
        Path none = Path.of("/proc/self/leasehold-no-such-name");
        int rename = renameNoReplace(none, none.resolveSibling("leasehold-no-such-name-2"));
        int times = setTimesNoFollow(none, Instant.EPOCH);
        if (rename != ENOENT || times != ENOENT) { // ENOSYS: an old kernel; EPERM: a seccomp or LSM policy
            throw new IllegalStateException("renameat2 and utimensat of names that do not exist answered errno "
                    + rename + " and " + times + ", not ENOENT");
        }
    }

    /** A thread's native memory for the calls' arguments, reused call after call. */
    private final class Frame {
        final Object first;
        final Object second;
        final Object state;
        final Object times;

        Frame() throws Throwable {
            Object arena = (Object) newArena.invokeExact();
            first = (Object) allocate.invokeExact(arena, (long) PATH_BYTES, 1L);
            second = (Object) allocate.invokeExact(arena, (long) PATH_BYTES, 1L);
            state = (Object) allocate.invokeExact(arena, stateBytes, 8L);
            times = (Object) allocate.invokeExact(arena, 32L, 8L); // two struct timespec
        }

        /** The path as the kernel takes it, NUL-terminated; false when it is longer than PATH_MAX. */
        boolean put(Object into, Path path) throws Throwable {
            byte[] bytes = path.toString().getBytes(names);
            if (bytes.length >= PATH_BYTES) {
                return false;
            }
            byte[] terminated = Arrays.copyOf(bytes, bytes.length + 1);
            copy.invokeExact((Object) terminated, 0, into, javaByte, 0L, terminated.length);
            return true;
        }
    }

    private Frame frame() {
        try {
            return new Frame();
        } catch (Throwable e) {
            throw new IllegalStateException("native memory for renameat2 and utimensat", e);
        }
    }

    private static Object array(Class<?> type, Object... items) {
        Object a = Array.newInstance(type, items.length);
        for (int i = 0; i < items.length; i++) {
            Array.set(a, i, items[i]);
        }
        return a;
    }
}
