package io.leasehold.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The reserve, and the connections, uploads and queue left beside it, for a few limits and drain concurrencies. */
class DescriptorBudgetTest {

    @ParameterizedTest(name = "limit {0}, concurrency {1}")
    @CsvSource({
        // limit, concurrency, reserve, connections, uploads, backlog
        "128, 2, 80, 16, 16, 4",        // the fault suite's service: (128 - 64 - 16) / 3
        "128, 4, 96, 10, 10, 2",
        "1024, 4, 96, 309, 64, 77",     // the kernel's usual soft limit
        "20000, 4, 96, 6634, 64, 1024", // the queue is never longer than 1024
        "99, 4, 96, 1, 1, 1",           // the least that still fits one connection; a queue of at least 1
        "98, 4, 96, 0, 0, 1",
        "40, 4, 96, 0, 0, 1",           // below the reserve: nothing, never negative
        "9223372036854775807, 4, 96, 2147483647, 64, 1024", // unlimited
    })
    void connectionsUploadsAndTheQueueShareWhatTheReserveLeaves(long limit, int concurrency, long reserve,
            int connections, int uploads, int backlog) {
        DescriptorBudget budget = new DescriptorBudget(limit, concurrency);
        assertEquals(reserve, budget.reserve(), "reserve");
        assertEquals(connections, budget.connections(), "connections");
        assertEquals(uploads, budget.uploads(), "uploads");
        assertEquals(backlog, budget.backlog(), "backlog");
    }
}
