package io.leasehold.schedule;

import java.time.Duration;

/** What the firing tells the metrics and the log, besides its views. */
public interface ScheduleEvents {

    /** This instance made the item of a fire time (not counted when another instance had made it first). */
    void fired(String schedule, String id, long epoch);

    /** Fire times passed over without an item, by the misfire policy or a pause. */
    void missed(String schedule, String why);

    /** This instance's clock is behind the schedule's mark by more than max-skew (called on each change of it). */
    void clockBehind(String schedule, Duration behind, boolean beyondSkew);

    ScheduleEvents NONE = new ScheduleEvents() {
        @Override
        public void fired(String schedule, String id, long epoch) {
        }

        @Override
        public void missed(String schedule, String why) {
        }

        @Override
        public void clockBehind(String schedule, Duration behind, boolean beyondSkew) {
        }
    };
}
