package io.leasehold.lease;

/** The store contract against the in-memory store; every client of the key shares the one instance. */
class InMemoryLeaseStoreContractTest extends LeaseStoreContract {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    @Override
    protected LeaseStore store() {
        return store;
    }

    @Override
    protected LeaseStore anotherClient() {
        return store;
    }

    @Override
    protected void wipe() {
        store.wipe();
    }

    @Override
    protected void purge() {
        store.purge();
    }
}
