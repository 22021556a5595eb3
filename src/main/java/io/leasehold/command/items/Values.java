package io.leasehold.command.items;

import io.leasehold.wire.QueryTimes;
import io.leasehold.core.ItemId;
import io.leasehold.spool.ItemView;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The values the commands take, checked by the API's own rules as picocli reads them: a bad one is a usage
 * error (exit 2) naming its option, before any configuration is read.
 */
final class Values {

    private Values() {
    }

    /** An item id by the spool's grammar. */
    static final class Id implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            return checked(() -> ItemId.require(value));
        }
    }

    /** A duration as the API's query takes it: PT30S, 30s, 12h, 7d; at least zero. */
    static final class Span implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return checked(() -> QueryTimes.duration("it", value));
        }
    }

    /** What {@code items list --state} takes: a folder, or a parked claim's state. */
    static final class Listed implements ITypeConverter<String> {
        static final List<String> STATES = List.of("pending", "claimed", ItemView.SCHEDULED, ItemView.RETRYING,
                "done", "failed");

        @Override
        public String convert(String value) {
            if (!STATES.contains(value)) {
                throw new TypeConversionException("must be one of " + String.join(", ", STATES) + ", got '"
                        + ItemId.printable(value) + "'");
            }
            return value;
        }
    }

    /** What a purge takes: a settled state. */
    static final class Settled implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.equals("done") && !value.equals("failed")) {
                throw new TypeConversionException("must be done or failed (only settled items are purged), got '"
                        + ItemId.printable(value) + "'");
            }
            return value;
        }
    }

    private interface Check<T> {
        T get();
    }

    private static <T> T checked(Check<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
