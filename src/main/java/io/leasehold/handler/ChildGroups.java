package io.leasehold.handler;

import java.io.IOException;

/**
 * Where the exec handler registers the process group of each command it starts, so that something
 * outside the JVM can end them should the JVM die: a killed JVM runs no code, and Java cannot ask the
 * kernel for a parent-death signal.
 */
public interface ChildGroups {

    /** Before the command may run: it starts only once this returned. */
    void register(long pgid) throws IOException;

    /** Its leader exited: the group is no longer this service's business. */
    void deregister(long pgid);

    /** Nobody watches (tests of the handler alone). */
    ChildGroups NONE = new ChildGroups() {
        @Override
        public void register(long pgid) {
        }

        @Override
        public void deregister(long pgid) {
        }
    };
}
