package io.leasehold.api;

import io.leasehold.config.OpenFilesLimit;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.SpoolUpkeep;
import jakarta.inject.Singleton;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Maps what the spool says to HTTP answers with a JSON body that explains them. */
@Singleton
public class ApiErrors {

    private static final Logger LOG = Logger.getLogger(ApiErrors.class);

    /**
     * ENOSPC and EDQUOT as the JDK words them: it keeps no errno, only the C library's text, which is
     * the same on glibc and musl for these two.
     */
    private static final List<String> FILESYSTEM_FULL = List.of("No space left on device", "Disk quota exceeded");

    private final SpoolUpkeep spool;

    public ApiErrors(SpoolUpkeep spool) {
        this.spool = spool;
    }

    @ServerExceptionMapper
    public Response badInput(IllegalArgumentException e) {
        return answer(400, e.getMessage());
    }

    @ServerExceptionMapper
    public Response unchecked(UncheckedIOException e) {
        return io(e.getCause());
    }

    @ServerExceptionMapper
    public Response io(IOException e) {
        if (e instanceof ItemStore.NoSuchItemException) {
            return answer(404, e.getMessage());
        }
        if (e instanceof ItemStore.DuplicateItemException || e instanceof ItemStore.WrongStateException
                || e instanceof ItemStore.UnfitItemException || e instanceof ItemStore.UnfitPayloadException
                || e instanceof ItemStore.UnfitOutputException) {
            return answer(409, e.getMessage());
        }
        if (e instanceof ItemStore.PayloadTooLargeException) {
            return answer(413, e.getMessage());
        }
        if (e instanceof BoundedUpload.UploadIncompleteException) {
            return answer(408, e.getMessage());
        }
        if (e instanceof ItemStore.SpoolUnavailableException) {
            return Response.fromResponse(answer(503, e.getMessage())).header(HttpHeaders.RETRY_AFTER, "1").build();
        }
        if (e instanceof ItemStore.EnqueuedAnywayException) {
            // Its cause may be a passing one, but a retry would be refused: the item is in the spool.
            LOG.warnf("answered 500, the item kept: %s", e.getMessage());
            return answer(500, e.getMessage());
        }
        if (descriptorsExhausted(e)) {
            // EMFILE or ENFILE: a burst took every descriptor; it passes once connections close.
            LOG.warnf("spool operation refused: the service ran out of open files (%s)", e.getMessage());
            return Response.fromResponse(answer(503, "the service ran out of open files for now (" + e.getMessage()
                    + "); the item was not enqueued: send it again with the same id shortly. If this repeats, raise"
                    + " the service's open-files limit (ulimit -n, now " + OPEN_FILES + ") or lower"
                    + " leasehold.item.max-uploads and quarkus.http.limits.max-connections"))
                    .header(HttpHeaders.RETRY_AFTER, "1").build();
        }
        Optional<String> full = filesystemFull(e);
        if (full.isPresent()) {
            // 507 Insufficient Storage: the client may try again later, once space was freed.
            LOG.warnf("spool operation refused: the filesystem of %s is full (%s)", spool.where(), full.get());
            return answer(507, "the filesystem of the spool (" + spool.where() + ") is full: " + full.get()
                    + "; nothing was written, try again once space was freed");
        }
        LOG.warnf(e, "spool operation failed");
        return answer(500, "the spool could not be used: " + e.getMessage());
    }

    private static final String OPEN_FILES = OpenFilesLimit.current().stream().mapToObj(Long::toString).findFirst()
            .orElse("unknown");

    /**
     * EMFILE or ENFILE in {@code e} or its causes ("Too many open files", "... in system", as the C library
     * words both). Not in what it suppressed: those are failures of the clean-up after the error that
     * counts (an owed release, say), which do not make that error a passing one.
     */
    static boolean descriptorsExhausted(Throwable e) {
        return e != null && (String.valueOf(e instanceof FileSystemException f ? f.getReason() : e.getMessage())
                .contains("Too many open files") || descriptorsExhausted(e.getCause()));
    }

    /** The C library's words when {@code e} or one of its causes says the filesystem is full. */
    static Optional<String> filesystemFull(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            // A FileSystemException's message also holds the file names, which could hold the words.
            String text = t instanceof FileSystemException f ? f.getReason() : t.getMessage();
            if (text != null) {
                for (String words : FILESYSTEM_FULL) {
                    if (text.contains(words)) {
                        return Optional.of(words);
                    }
                }
            }
        }
        return Optional.empty();
    }

    @ServerExceptionMapper
    public Response batchLine(NdjsonBatch.LineRefusedException e) {
        return answer(e.status, e.getMessage());
    }

    @ServerExceptionMapper
    public Response overloaded(UploadSlots.OverloadedException e) {
        return Response.fromResponse(answer(503, e.getMessage())).header(HttpHeaders.RETRY_AFTER, "1").build();
    }

    /** Quarkus' own text names neither the type the call takes nor the fix. */
    @ServerExceptionMapper
    public Response unsupportedType(jakarta.ws.rs.NotSupportedException e, HttpHeaders headers) {
        String sent = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        return answer(415, "the body's Content-Type is " + (sent == null ? "missing" : "'" + io.leasehold.core.ItemId
                .printable(sent) + "'") + ": POST /items/batch takes Content-Type: " + BatchResource.NDJSON
                + ", one JSON object a line (curl -H 'Content-Type: " + BatchResource.NDJSON + "' --data-binary @file)");
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status == 406) { // Quarkus' own text names an annotation: say what the call answers instead
            return answer(406, "the Accept header asks for a type this call does not answer: GET /items/{id}/payload"
                    + " answers application/octet-stream, every other call application/json (or send Accept: */*)");
        }
        return answer(status, e.getMessage());
    }

    static Response answer(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(new ApiError(status, message)).build();
    }
}
