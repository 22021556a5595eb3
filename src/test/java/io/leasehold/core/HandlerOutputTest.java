package io.leasehold.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An attempt's output stays within its bounds whatever a handler shows, and never splits a character. */
class HandlerOutputTest {

    private static final int MAX = HandlerOutput.MAX_PART_BYTES;

    @Test
    void aLongStreamKeepsItsLastBytesAndSaysHowManyThereWere() {
        byte[] stream = ("x".repeat(10_000) + "the end").getBytes(StandardCharsets.UTF_8);
        byte[] last = java.util.Arrays.copyOfRange(stream, stream.length - MAX, stream.length);
        HandlerOutput.Part part = HandlerOutput.Part.tail("stdout", last, stream.length);
        assertEquals(MAX, part.text().getBytes(StandardCharsets.UTF_8).length);
        assertTrue(part.text().endsWith("the end"));
        assertEquals(stream.length, part.bytes());
        assertEquals("tail", part.kept());
    }

    @Test
    void aTailCutInsideACharacterBeginsWithTheNextOne() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8); // three bytes
        byte[] last = {euro[1], euro[2], 'o', 'k'}; // the stream had the euro's first byte before these
        assertEquals("ok", HandlerOutput.Part.tail("stderr", last, 100).text());
        assertEquals("\uFFFD\uFFFDok", HandlerOutput.Part.tail("stderr", last, 4).text(),
                "a whole stream that begins with stray bytes shows them");
    }

    @Test
    void aStartCutInsideACharacterEndsBeforeIt() {
        String body = "a".repeat(MAX - 1) + "€ and more";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HandlerOutput.Part part = HandlerOutput.Part.start("body", bytes, bytes.length);
        assertEquals("a".repeat(MAX - 1), part.text());
        assertEquals(bytes.length, part.bytes());
    }

    @Test
    void textGivenDirectlyIsCutToTheBoundToo() {
        HandlerOutput.Part tail = new HandlerOutput.Part("stdout", "é".repeat(MAX), 0, "tail");
        assertEquals(MAX, tail.text().getBytes(StandardCharsets.UTF_8).length);
        assertEquals(2L * MAX, tail.bytes(), "an unknown length (0) is the given text's own");
        HandlerOutput.Part start = new HandlerOutput.Part("body", "é".repeat(MAX) + "!", 0, "start");
        assertTrue(start.text().startsWith("éé") && !start.text().endsWith("!"));
    }

    @Test
    void malformedBytesAreShownAsReplacementsWithinTheBound() {
        byte[] junk = new byte[MAX];
        java.util.Arrays.fill(junk, (byte) 0xFF);
        HandlerOutput.Part part = HandlerOutput.Part.tail("stdout", junk, MAX);
        assertTrue(part.text().getBytes(StandardCharsets.UTF_8).length <= MAX, "the bound is in UTF-8 bytes");
        assertTrue(part.text().chars().allMatch(c -> c == 0xFFFD));
        assertEquals(MAX, part.bytes(), "the stream's own length, not that of its replacements");
    }

    @Test
    void atMostFourPartsAreKept() {
        HandlerOutput.Part p = new HandlerOutput.Part("extra", "x", 1, "start");
        assertEquals(HandlerOutput.MAX_PARTS, new HandlerOutput(0, Collections.nCopies(9, p)).parts().size());
        assertEquals(List.of(), new HandlerOutput(null, null).parts());
    }

    @Test
    void aPartIsNamedByOneLowerCaseWordAndKeepsItsTailOrItsStart() {
        assertThrows(IllegalArgumentException.class, () -> new HandlerOutput.Part("Std Out", "", 0, "tail"));
        assertThrows(IllegalArgumentException.class, () -> new HandlerOutput.Part("stdout", "", 0, "middle"));
    }

    @Test
    void anOutputWithNoStatusAndNoTextIsBlank() {
        assertTrue(new HandlerOutput(null, List.of(new HandlerOutput.Part("stdout", "", 0, "tail"))).blank());
        assertEquals(false, new HandlerOutput(0, List.of()).blank());
    }
}
