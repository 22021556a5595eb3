package io.leasehold.api;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.leasehold.spool.ItemStore;
import io.leasehold.spool.StagedBatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PushbackReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads a POST /items/batch body, one JSON object a line ({@code {"id":..,"payload":..}} or
 * {@code {"id":..,"payloadBase64":..}}, id optional), into a {@link StagedBatch}, line by line: a
 * base64 payload is decoded as it streams into its file, a text payload is held at most max-bytes long.
 * The first bad line stops the reading with an error naming its number.
 */
final class NdjsonBatch {

    /** What refuses a batch at a line: its status and why. */
    static final class LineRefusedException extends RuntimeException {
        final int status;

        LineRefusedException(int status, String message, Throwable cause) {
            super(message, cause);
            this.status = status;
        }
    }

    /** A line refused for its content alone. */
    private static final class BadLine extends RuntimeException {
        BadLine(String message) {
            super(message);
        }
    }

    private final JsonFactory json;
    private final long maxBytes;
    private final int maxLines;

    NdjsonBatch(long maxBytes, int maxLines) {
        this.maxBytes = maxBytes;
        this.maxLines = maxLines;
        // A text payload is one string in memory: never longer than max-bytes (ids are far shorter).
        int longest = (int) Math.min(Integer.MAX_VALUE, Math.max(maxBytes, 4096));
        this.json = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(longest).build()).build();
    }

    /** The longest line an item within max-bytes can need: every byte a six-character \\u escape, and room for the rest. */
    long longestLine() {
        return 6 * maxBytes + 1024;
    }

    /** A known id refuses the batch, naming its line (an earlier one when the store found it late). */
    static LineRefusedException known(ItemStore.DuplicateItemException e, int reading) {
        return new LineRefusedException(409, "line " + (e.line() > 0 ? e.line() : reading) + ": " + e.getMessage(), e);
    }

    /**
     * The refusal to answer for a line refused as {@code own}: an earlier line's 409 when that line's id
     * is known, else {@code own}. The first refused line is the one named, as a store that checks each id
     * as its line is read would answer (a store may hear of its creates lines later).
     */
    static LineRefusedException firstRefused(StagedBatch batch, LineRefusedException own) {
        return earlierKnown(batch, own).orElse(own);
    }

    /** As {@link #firstRefused(StagedBatch, LineRefusedException)} for an upload that broke off: throws it unless an earlier line's 409 answers first. */
    static LineRefusedException firstRefused(StagedBatch batch, IOException own) throws IOException {
        Optional<LineRefusedException> earlier = earlierKnown(batch, own);
        if (earlier.isEmpty()) {
            throw own;
        }
        return earlier.get();
    }

    private static Optional<LineRefusedException> earlierKnown(StagedBatch batch, Exception own) {
        try {
            batch.refusedSoFar();
            return Optional.empty();
        } catch (ItemStore.DuplicateItemException earlier) {
            LineRefusedException first = known(earlier, earlier.line());
            first.addSuppressed(own);
            return Optional.of(first);
        } catch (IOException unknown) { // the store cannot tell now: the line's own refusal stands
            own.addSuppressed(unknown);
            return Optional.empty();
        }
    }

    /** Stages every line of {@code body} into {@code batch}; returns how many items. */
    int read(InputStream body, StagedBatch batch) throws IOException {
        NdjsonLines lines = new NdjsonLines(body, longestLine());
        int items = 0;
        for (InputStream line = lines.next(); line != null; line = lines.next()) {
            int number = lines.number();
            if (++items > maxLines) {
                throw firstRefused(batch, new LineRefusedException(413, "line " + number + ": the batch has more than "
                        + maxLines + " lines (leasehold.item.max-batch)", null));
            }
            try {
                item(line, number, batch);
            } catch (ItemStore.DuplicateItemException e) {
                throw known(e, number);
            } catch (BadLine | IllegalArgumentException e) {
                throw firstRefused(batch, new LineRefusedException(400, "line " + number + ": " + e.getMessage(), e));
            } catch (ItemStore.PayloadTooLargeException e) {
                throw firstRefused(batch, new LineRefusedException(413, "line " + number + ": " + e.getMessage(), e));
            } catch (CharacterCodingException e) {
                throw firstRefused(batch, new LineRefusedException(400, "line " + number + ": not UTF-8 (a batch is"
                        + " UTF-8 text, one JSON object a line; send other bytes as \"payloadBase64\")", e));
            } catch (NdjsonLines.LineTooLongException e) {
                throw firstRefused(batch, new LineRefusedException(413, e.getMessage(), e));
            } catch (JsonProcessingException e) {
                throw firstRefused(batch, new LineRefusedException(400, "line " + number + ": not valid JSON"
                        + notJson(e), e));
            }
        }
        return items;
    }

    /**
     * Jackson's words without its own location (whose "line: 1" is always the batch line's first) and with the
     * column, then the shape a line must have.
     */
    private static String notJson(JsonProcessingException e) {
        String words = String.valueOf(e.getOriginalMessage()).replaceAll("\\s*\\(start marker at \\[Source:.*?\\]\\)", "")
                .replaceAll("\\s*at \\[Source:.*$", "").strip();
        int column = e.getLocation() == null ? -1 : e.getLocation().getColumnNr();
        return (column > 0 ? " at column " + column : "") + ": " + words + " (each line is one JSON object, e.g."
                + " {\"id\":\"order-1\",\"payload\":\"text\"})";
    }

    /**
     * The line as strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), less a leading
     * byte order mark. Never Jackson's guess from the first bytes, which would read a line as UTF-16 or UTF-32.
     */
    private static Reader text(InputStream line) throws IOException {
        PushbackReader text = new PushbackReader(new InputStreamReader(line, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)));
        int first = text.read();
        if (first != -1 && first != '\uFEFF') {
            text.unread(first);
        }
        return text;
    }

    private void item(InputStream line, int number, StagedBatch batch) throws IOException {
        try (JsonParser parser = json.createParser(text(line))) {
            fields(parser, number, batch);
        }
    }

    private void fields(JsonParser parser, int number, StagedBatch batch) throws IOException {
        try {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new BadLine("not a JSON object");
            }
            String id = null;
            boolean hasId = false;
            String payloadField = null;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("id")) {
                    if (hasId) {
                        throw new BadLine("\"id\" is given twice");
                    }
                    hasId = true;
                    id = string(parser, value, field);
                    AddressableIds.require(id);
                } else if (field.equals("payload") || field.equals("payloadBase64")) {
                    if (payloadField != null) {
                        throw new BadLine(payloadField.equals(field) ? "\"" + field + "\" is given twice"
                                : "both \"payload\" and \"payloadBase64\": give one");
                    }
                    payloadField = field;
                    if (value != JsonToken.VALUE_STRING) {
                        throw new BadLine("\"" + field + "\" must be a string");
                    }
                    OutputStream out = batch.payload(number, id);
                    try {
                        if (field.equals("payload")) {
                            out.write(utf8(parser.getText()));
                        } else {
                            base64(parser, out);
                        }
                    } catch (StreamConstraintsException e) { // the value past the bound: too large, not a bad line
                        throw (IOException) new ItemStore.PayloadTooLargeException(maxBytes).initCause(e);
                    }
                } else {
                    throw new BadLine("unknown field \"" + io.leasehold.core.ItemId.printable(field)
                            + "\" (an item has \"id\", and \"payload\" or \"payloadBase64\")");
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT) {
                throw new BadLine("not a JSON object of fields");
            }
            if (payloadField == null) {
                throw new BadLine("no \"payload\" or \"payloadBase64\": give one");
            }
            if (parser.nextToken() != null) {
                throw new BadLine("more than one JSON value on the line");
            }
            batch.item(number, id);
        } catch (StreamConstraintsException e) {
            // Past a bound elsewhere than in a payload's value (a name, an id, a number): no item's line.
            throw new BadLine("not an item's line (an item has \"id\", and \"payload\" or \"payloadBase64\"): "
                    + e.getOriginalMessage());
        }
    }

    private static String string(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw new BadLine("\"" + field + "\" must be a string");
        }
        return parser.getText();
    }

    /** Refuses lone surrogates (a \\u escape of half a character), which have no UTF-8 form. */
    private static byte[] utf8(String text) {
        try {
            ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder().encode(CharBuffer.wrap(text));
            byte[] out = new byte[bytes.remaining()];
            bytes.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw new BadLine("\"payload\" is not text: it holds half of a UTF-16 surrogate pair (send bytes as"
                    + " payloadBase64)");
        }
    }

    private static void base64(JsonParser parser, OutputStream out) throws IOException {
        try {
            parser.readBinaryValue(Base64Variants.MIME_NO_LINEFEEDS, out);
        } catch (StreamConstraintsException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw new BadLine("\"payloadBase64\" is not base64: " + e.getOriginalMessage());
        } catch (IllegalArgumentException e) {
            throw new BadLine("\"payloadBase64\" is not base64: " + e.getMessage()); // how Jackson words a bad character
        }
    }
}
