package io.leasehold.api;

import static io.restassured.RestAssured.given;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One GET /q/metrics, and the values of its sample lines. */
final class Scrape {

    final String text;

    private Scrape(String text) {
        this.text = text;
    }

    static Scrape now() {
        return new Scrape(given().when().get("/q/metrics").then().statusCode(200).extract().asString());
    }

    /** The value of one sample line; a line that is missing fails the test. */
    double sample(String name, String labels) {
        Double value = sampleOrNull(name, labels);
        if (value == null) {
            throw new AssertionError("no sample " + name + "{" + labels + "} in:\n" + text);
        }
        return value;
    }

    /** Before anything was counted a meter registered on first use has no line yet: that is 0. */
    double sampleOrZero(String name, String labels) {
        Double value = sampleOrNull(name, labels);
        return value == null ? 0 : value;
    }

    private Double sampleOrNull(String name, String labels) {
        Pattern line = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$");
        Matcher m = line.matcher(text);
        while (m.find()) {
            String found = m.group(1) == null ? "" : m.group(1);
            if (labels.isEmpty() || found.contains(labels)) {
                return Double.parseDouble(m.group(2));
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return text;
    }
}
