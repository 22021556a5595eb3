package io.leasehold.jetstream;

import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Compare-and-set writes of one caller sent without waiting for each answer, so a batch costs about one
 * round trip instead of one per write. Each write still carries the revision it expects (0: the key must be
 * new), so the server lets exactly one writer win, as {@link Ledger#created} and {@link Ledger#move} do.
 * An answer that is a refusal, an error or late is not trusted either way: the same write is made again
 * the one-at-a-time way, which reads the entry back and knows its own by the entry's token.
 * Used by one thread.
 */
final class OverlappedWrites {

    /** A create when {@code base} is null, else a move from {@code base}. */
    record Write(String id, Ledger.Seen base, LedgerEntry entry) {
    }

    /** A write and how it ended: {@code landed} empty when another writer won (the id known, the item moved). */
    record Outcome(Write write, Optional<Ledger.Seen> landed) {
    }

    /** How a write goes out: JetStream's publish without waiting; tests stage answers lost or never sent. */
    @FunctionalInterface
    interface Sender {
        CompletableFuture<PublishAck> send(String subject, byte[] data, PublishOptions expect);
    }

    /** How long an answer is waited for before the write is decided the one-at-a-time way. */
    private static final long ANSWER_WAIT_MS = 5_000;

    private final Ledger ledger;
    private final Sender sender;
    private final List<Write> sent = new ArrayList<>();
    private final List<CompletableFuture<PublishAck>> answers = new ArrayList<>();

    OverlappedWrites(Ledger ledger) {
        this(ledger, (subject, data, expect) -> ledger.plain() ? ledger.jetStream().publishAsync(subject, data, expect)
                : CompletableFuture.failedFuture(new IllegalStateException("a mirrored bucket: one at a time")));
    }

    OverlappedWrites(Ledger ledger, Sender sender) {
        this.ledger = ledger;
        this.sender = sender;
    }

    /** Sends {@code write} now; its outcome comes with the next {@link #await}. */
    void send(Write write) {
        PublishOptions expect = PublishOptions.builder()
                .expectedLastSubjectSequence(write.base() == null ? 0 : write.base().revision()).build();
        CompletableFuture<PublishAck> answer;
        try {
            answer = sender.send(ledger.subject(write.id()), LedgerJson.encode(write.entry()), expect);
        } catch (RuntimeException e) { // not even sent (the connection reconnects): decided one at a time
            answer = CompletableFuture.failedFuture(e);
        }
        sent.add(write);
        answers.add(answer);
    }

    /** How many writes are sent and not awaited yet. */
    int inFlight() {
        return sent.size();
    }

    /**
     * Every write sent so far, decided, in the order sent. When one cannot be decided (NATS out of reach),
     * the others are still decided and told to the ledger before the first such error is thrown.
     */
    List<Outcome> await() throws IOException {
        List<Outcome> out = new ArrayList<>(sent.size());
        IOException failed = null;
        for (int i = 0; i < sent.size(); i++) {
            try {
                out.add(new Outcome(sent.get(i), decided(sent.get(i), answers.get(i))));
            } catch (InterruptedIOException e) {
                clear();
                throw e;
            } catch (IOException e) {
                failed = failed == null ? e : failed;
            }
        }
        clear();
        if (failed != null) {
            throw failed;
        }
        return out;
    }

    /** The writes sent so far whose answers have come, from the first on, decided; none waited for. */
    List<Outcome> awaitAnswered() throws IOException {
        int answered = 0;
        while (answered < answers.size() && answers.get(answered).isDone()) {
            answered++;
        }
        List<Outcome> out = new ArrayList<>(answered);
        for (int i = 0; i < answered; i++) {
            Write write = sent.remove(0);
            out.add(new Outcome(write, decided(write, answers.remove(0))));
        }
        return out;
    }

    private void clear() {
        sent.clear();
        answers.clear();
    }

    private Optional<Ledger.Seen> decided(Write write, CompletableFuture<PublishAck> answer) throws IOException {
        try {
            PublishAck ack = answer.get(ANSWER_WAIT_MS, TimeUnit.MILLISECONDS);
            Ledger.Seen landed = new Ledger.Seen(ack.getSeqno(), write.entry());
            ledger.heard(write.id(), landed);
            return Optional.of(landed);
        } catch (ExecutionException | TimeoutException e) {
            // Refused, failed or unanswered: the same write again, at the same revision, decides whether
            // this one landed (its token is found), lost (another entry is found), or can still be made.
            return write.base() == null ? ledger.created(write.id(), write.entry())
                    : ledger.move(write.id(), write.base(), write.entry());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("waiting for the ledger's answers: interrupted");
        }
    }
}
