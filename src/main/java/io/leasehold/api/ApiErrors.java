package io.leasehold.api;

import io.leasehold.spool.ItemStore;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Maps what the spool says to HTTP answers with a JSON body that explains them. */
public class ApiErrors {

    private static final Logger LOG = Logger.getLogger(ApiErrors.class);

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
                || e instanceof ItemStore.UnfitItemException) {
            return answer(409, e.getMessage());
        }
        if (e instanceof ItemStore.PayloadTooLargeException) {
            return answer(413, e.getMessage());
        }
        if (e instanceof BoundedUpload.UploadIncompleteException) {
            return answer(408, e.getMessage());
        }
        LOG.warnf(e, "spool operation failed");
        return answer(500, "the spool could not be used: " + e.getMessage());
    }

    @ServerExceptionMapper
    public Response overloaded(UploadSlots.OverloadedException e) {
        return Response.fromResponse(answer(503, e.getMessage())).header(HttpHeaders.RETRY_AFTER, "1").build();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        return answer(status, e.getMessage());
    }

    static Response answer(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(new ApiError(status, message)).build();
    }
}
