/**
 * The jar's command line as a whole ({@link io.leasehold.cli.OperatorCli}): the words before the command,
 * the usage, {@code help}, {@code --help} and {@code --version}, and the one line a usage error prints. It
 * hands {@code lease ...} to {@link io.leasehold.command} and the rest to the picocli commands of
 * {@link io.leasehold.command.items}, which depend on neither it nor each other's root.
 */
package io.leasehold.cli;
