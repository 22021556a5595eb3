/**
 * The {@link io.leasehold.handler.Handler} port and the built-in handlers: log, exec (a shell per
 * attempt, its process group watched so it dies with the service) and http (a CloudEvent POST carrying
 * the epoch). The built-ins stop a cancelled attempt (the exec group killed, the HTTP request reset); a
 * user's handler must honour cancellation itself. Does not guarantee that work is not repeated: an
 * attempt may run again after a takeover, and a receiver that ignores the epoch is not fenced by it.
 */
package io.leasehold.handler;
