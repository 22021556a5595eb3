package io.leasehold.directory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.leasehold.core.Generation;
import io.leasehold.spool.AttemptRecord;
import io.leasehold.spool.PastAttempt;
import io.leasehold.testing.Fifo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** attempts/<id>/<generation> on real files: owned per claim, read with a bound, junk never served. */
class AttemptRecordsTest extends StoreTestBase {

    final Generation first = Generation.parse("1-aaa").orElseThrow();
    final Generation second = Generation.parse("2-bbb").orElseThrow();
    AttemptRecords records;

    @BeforeEach
    void records() {
        records = spool.records();
    }

    private Path recordFile(String id, Generation g) {
        return layout.file(SpoolFolder.ATTEMPTS, id).resolve(g.toString());
    }

    private boolean reported(String name) {
        return anomalies.list().stream().anyMatch(a -> a.name().equals(name));
    }

    @Test
    void eachClaimReadsItsOwnRecordAndALateHolderCannotOverwriteIt() throws IOException {
        records.write("x", second, AttemptRecord.note(1, "attempt 1 was abandoned by its holder"));
        // The holder of attempt 1 lost the claim but does not know yet: it writes, to its own generation only.
        records.write("x", first, new AttemptRecord(AttemptRecord.Kind.FAILED, 0, "a late verdict"));

        assertEquals(Optional.of(AttemptRecord.note(1, "attempt 1 was abandoned by its holder")), records.read("x", second));
        assertEquals("v3 note 1 0\nattempt 1 was abandoned by its holder", Files.readString(recordFile("x", second)));
        records.dropAllBut("x", second);
        assertEquals(Optional.empty(), records.read("x", first), "the claim that has the item drops those before it");
        assertTrue(records.read("x", second).isPresent());
    }

    /**
     * v3 keeps the history one attempt a line before the text, what is unknown as "-", a reason kept to one
     * line; a v2 record (older builds) is read as one without a history, its text whole.
     */
    @Test
    void aRecordKeepsItsHistoryAndAnOlderOneWithoutAHistoryIsStillRead() throws IOException {
        java.time.Instant start = java.time.Instant.parse("2026-11-30T15:00:00Z");
        PastAttempt retried = new PastAttempt(1, "web3p12", 7L, start, start.plusSeconds(2), "retry", "exit 75:\nbusy");
        PastAttempt abandoned = new PastAttempt(2, null, null, null, null, "abandoned", null);
        AttemptRecord written = new AttemptRecord(AttemptRecord.Kind.FAILED, 1, "exit 3\nline two",
                List.of(retried, abandoned));
        records.write("h", second, written);
        assertEquals("v3 failed 1 2\n1 web3p12 7 2026-11-30T15:00:00Z 2026-11-30T15:00:02Z retry exit 75: busy\n"
                + "2 - - - - abandoned \nexit 3\nline two", Files.readString(recordFile("h", second)));
        AttemptRecord read = records.read("h", second).orElseThrow();
        assertEquals(List.of(retried, abandoned), read.history());
        assertEquals("exit 75: busy", read.history().get(0).reason(), "one line");
        assertEquals(written, read);

        Files.writeString(recordFile("h", first), "v2 retry 0\nexit 75\nmore");
        assertEquals(Optional.of(new AttemptRecord(AttemptRecord.Kind.RETRY, 0, "exit 75\nmore")), records.read("h", first));
        Files.writeString(recordFile("h", first), "v3 retry 0 2\n1 - - - - retry x\n");
        assertEquals(Optional.empty(), records.read("h", first), "fewer attempt lines than it says: not a record");
        assertTrue(reported("h/" + first), "and reported as such");
    }

    @Test
    void aHistoryKeepsTheLatestAttemptsOnly() {
        AttemptRecord record = AttemptRecord.note(0, "");
        for (int attempt = 1; attempt <= PastAttempt.MAX_KEPT + 3; attempt++) {
            record = record.adding(new PastAttempt(attempt, null, null, null, null, "retry", "r" + attempt));
        }
        assertEquals(PastAttempt.MAX_KEPT, record.history().size());
        assertEquals(4, record.history().get(0).attempt(), "the oldest dropped");
        assertEquals(PastAttempt.MAX_KEPT + 3, record.history().get(PastAttempt.MAX_KEPT - 1).attempt());
        assertTrue(new PastAttempt(1, null, null, null, null, "failed", "x".repeat(5000)).reason().length()
                <= PastAttempt.MAX_REASON + 1, "a reason in a history is cut");
    }

    @Test
    void theReasonOfAFailedItemIsTheVerdictOfItsLastClaim() throws IOException {
        records.write("y", first, new AttemptRecord(AttemptRecord.Kind.FAILED, 0, "an older verdict"));
        records.write("y", second, new AttemptRecord(AttemptRecord.Kind.FAILED, 1, "exit 2: no such table"));
        records.write("y", Generation.parse("3-ccc").orElseThrow(), AttemptRecord.note(1, "not a verdict"));
        assertEquals(Optional.of("exit 2: no such table"), records.failedReason("y"));
    }

    @Test
    void forgetRemovesTheRecordsTheFolderAndAnOldReason() throws IOException {
        records.write("z", first, AttemptRecord.note(0, "n"));
        Files.writeString(layout.file(SpoolFolder.REASONS, "z"), "1-aaa 0\nold");
        records.forget("z");
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.ATTEMPTS));
        assertEquals(List.of(), SpoolTree.names(layout, SpoolFolder.REASONS));
    }

    @Test
    void anOldReasonAppliesOnlyToTheGenerationItWasWrittenFor() throws IOException {
        Files.writeString(layout.file(SpoolFolder.REASONS, "o"), "1-aaa 2\nexit 75: busy");
        assertEquals(Optional.of(new AttemptRecord(AttemptRecord.Kind.RETRY, 2, "exit 75: busy")), records.read("o", first),
                "a claim parked for a retry by the old code");
        assertEquals(Optional.empty(), records.read("o", second), "never inherited by another claim");
        assertEquals(Optional.of("exit 75: busy"), records.failedReason("o"), "shown for a failed item of an old spool");
        Files.writeString(layout.file(SpoolFolder.REASONS, "h"), "written by hand");
        assertEquals(Optional.of("written by hand"), records.failedReason("h"));
    }

    @Test
    void aRecordThatIsASymlinkAFifoAHardLinkOrTooLargeIsJunkNeverServedNeverBlocking() throws Exception {
        Path outside = Files.writeString(dir.resolve("outside"), "v2 failed 0\na secret outside the spool");
        Path folder = Files.createDirectories(layout.file(SpoolFolder.ATTEMPTS, "j"));
        Files.createSymbolicLink(folder.resolve("1-link"), outside);
        Files.createLink(folder.resolve("2-hard"), outside);
        Fifo.make(folder.resolve("3-fifo"));
        Files.writeString(folder.resolve("4-big"), "v2 failed 0\n" + "x".repeat((int) AttemptRecords.MAX_BYTES));
        Files.writeString(folder.resolve("5-garbage"), "not a record");
        Files.writeString(folder.resolve("not-a-generation"), "v2 failed 0\nx");

        assertEquals(Optional.empty(), records.failedReason("j"));
        assertEquals(Optional.empty(), records.read("j", Generation.parse("3-fifo").orElseThrow()));
        for (String name : List.of("j/1-link", "j/2-hard", "j/3-fifo", "j/4-big", "j/5-garbage", "j/not-a-generation")) {
            assertTrue(reported(name), name + " reported: " + anomalies.list());
        }
        assertEquals("v2 failed 0\na secret outside the spool", Files.readString(outside), "never touched");
    }

    @Test
    void aRecordsFolderThatIsASymlinkIsNeverEnteredNorEmptied() throws IOException {
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("1-aaa"), "v2 failed 0\nnot ours");
        Files.createSymbolicLink(layout.file(SpoolFolder.ATTEMPTS, "s"), elsewhere);

        assertEquals(Optional.empty(), records.failedReason("s"));
        records.forget("s");
        assertTrue(Files.exists(elsewhere.resolve("1-aaa")), "nothing deleted through the link");
        assertTrue(reported("s"), anomalies.list().toString());
    }

    @Test
    void anOldReasonThatIsASymlinkOrAFifoIsJunkToo() throws Exception {
        Path outside = Files.writeString(dir.resolve("outside"), "1-aaa 0\na secret");
        Files.createSymbolicLink(layout.file(SpoolFolder.REASONS, "l"), outside);
        Fifo.make(layout.file(SpoolFolder.REASONS, "f"));

        assertEquals(Optional.empty(), records.failedReason("l"));
        assertEquals(Optional.empty(), records.read("l", first));
        assertEquals(Optional.empty(), records.failedReason("f"));
        assertTrue(reported("l") && reported("f"), anomalies.list().toString());
    }
}
