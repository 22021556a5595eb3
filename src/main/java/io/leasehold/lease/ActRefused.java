package io.leasehold.lease;

/** An act may not happen now: the lease is lost, or held by nobody this process can name. */
public final class ActRefused extends Exception {

    public ActRefused(String why) {
        super(why);
    }
}
