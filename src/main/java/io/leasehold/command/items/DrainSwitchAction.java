package io.leasehold.command.items;

import io.leasehold.drain.DrainPause;
import io.leasehold.lease.Holders;
import io.leasehold.wire.DrainState;
import java.io.IOException;
import java.util.Optional;

/** A pause or resume of the fleet's drain, by the same rule as the API's (a second one changes nothing). */
abstract class DrainSwitchAction extends SpoolAction {

    abstract boolean paused();

    @Override
    final void run(OpenSpool spool) throws IOException {
        var pause = new DrainPause(spool.drainSwitch(), spool.clock)
                .set(paused(), "command line on " + Holders.hostAndPid());
        DrainStatus.printState(this, DrainState.of(Optional.of(pause)));
    }
}
