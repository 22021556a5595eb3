package io.leasehold.command;

/** A setting command mode cannot use; the message names the key. Exit status 1, as for the service. */
public final class ConfigException extends Exception {

    public ConfigException(String message) {
        super("invalid configuration: " + message);
    }
}
