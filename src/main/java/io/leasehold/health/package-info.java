/**
 * Readiness checks: the spool's folders writable, settlements not waiting on a full disk, the controller
 * lease not lost. They report what this instance sees at the moment asked; they do not guarantee that
 * the spool, the bus or other instances are healthy, nor that the answer still holds a moment later.
 */
package io.leasehold.health;
