package io.leasehold.lease;

import io.leasehold.core.Clock;
import io.leasehold.core.HolderTag;
import io.leasehold.core.Reading;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Names this process among all instances, as the lease's holder and in logs. */
public final class Holders {

    private Holders() {
    }

    public static Holder thisProcess(Clock clock) {
        return thisProcess("leasehold", clock);
    }

    /** This process as {@code <role>@<host> pid <pid> since <reading>}, e.g. role "leasehold-exec". */
    public static Holder thisProcess(String role, Clock clock) {
        String host = hostName();
        String instance = role + "@" + host + " pid " + ProcessHandle.current().pid() + " since "
                + Reading.format(clock.now());
        String build = Holders.class.getPackage().getImplementationVersion();
        return new Holder(instance, host, build == null ? "dev" : build);
    }

    /** This process in the nonces of its claims: its host and pid, short (see {@link HolderTag}). */
    public static HolderTag tag() {
        return HolderTag.of(hostName(), ProcessHandle.current().pid());
    }

    /** This process as {@code <host> pid <pid>}: who asked, in what the fleet keeps by hand (a pause). */
    public static String hostAndPid() {
        return hostName() + " pid " + ProcessHandle.current().pid();
    }

    private static String hostName() {
        String fromEnv = System.getenv("HOSTNAME");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
