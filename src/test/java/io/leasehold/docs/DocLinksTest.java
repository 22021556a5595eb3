package io.leasehold.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of README.md and docs/*.md resolves: the file (or folder) it names exists, and an
 * {@code #anchor} matches a heading of the target file under GitHub's slug rules (lowercase; characters other
 * than letters, digits, spaces, hyphens and underscores dropped; spaces made hyphens; a repeated slug gets
 * {@code -1}, {@code -2}, ...). Links to other sites ({@code https:}, {@code mailto:}) are not followed.
 */
class DocLinksTest {

    /** {@code [text](target)} and {@code ![alt](target)}, with an optional title; the target has no spaces. */
    private static final Pattern LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** The lines of a Markdown text outside fenced code blocks. */
    static List<String> prose(String text) {
        List<String> lines = new ArrayList<>();
        String fence = null;
        for (String line : text.lines().toList()) {
            String stripped = line.stripLeading();
            if (fence == null && (stripped.startsWith("```") || stripped.startsWith("~~~"))) {
                fence = stripped.substring(0, 3);
            } else if (fence != null && stripped.startsWith(fence)) {
                fence = null;
            } else if (fence == null) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** GitHub's anchor for a heading's text. */
    static String slug(String heading) {
        StringBuilder slug = new StringBuilder();
        heading.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    /** The anchors of a Markdown file's headings, repeated ones numbered as GitHub numbers them. */
    static Set<String> anchors(Path page) {
        String text;
        try {
            text = Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(text)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String base = slug(m.group(2));
                int times = seen.merge(base, 1, Integer::sum);
                anchors.add(times == 1 ? base : base + "-" + (times - 1));
            }
        }
        return anchors;
    }

    /** Each relative link of a page that does not resolve, with why. */
    static List<String> brokenLinks(Path page) throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchorsOf = new HashMap<>();
        for (String line : prose(Files.readString(page))) {
            Matcher m = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (m.find()) {
                String target = m.group(1);
                if (SCHEME.matcher(target).find()) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
                Path resolved = file.isEmpty() ? page
                        : page.toAbsolutePath().getParent().resolve(URLDecoder.decode(file, StandardCharsets.UTF_8)).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(page + ": " + target + " (no such file: " + file + ")");
                } else if (anchor != null) {
                    if (!resolved.getFileName().toString().endsWith(".md")) {
                        broken.add(page + ": " + target + " (an anchor into a file that is not Markdown)");
                    } else if (!anchorsOf.computeIfAbsent(resolved, DocLinksTest::anchors).contains(anchor)) {
                        broken.add(page + ": " + target + " (no heading #" + anchor + " in " + file + ")");
                    }
                }
            }
        }
        return broken;
    }

    @Test
    void everyRelativeLinkOfTheReadmeAndTheDocsResolves() throws IOException {
        List<Path> pages = pages();
        assertTrue(pages.size() > 10, "README.md and the pages of docs/: " + pages);
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            broken.addAll(brokenLinks(page));
        }
        assertEquals(List.of(), broken);
    }

    @Test
    void slugsFollowGitHubsRules() {
        assertEquals("borrowed-epochs-in-the-service-claims-mode", slug("Borrowed epochs in the service (`claims` mode)"));
        assertEquals("what-the-binary-needs-at-run-time-and-where-it-differs-from-the-jar",
                slug("What the binary needs at run time, and where it differs from the jar"));
        assertEquals("lease-exec", slug("`lease exec`"));
        assertEquals("controller-lease-failover", slug("Controller-lease failover"));
        assertEquals("quick_start-2", slug("Quick_start 2"));
    }

    @Test
    void aBrokenLinkIsFound(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.md"), "# A page\n\n## Some part\n\n```\n# not a heading\n```\n");
        Path page = dir.resolve("b.md");
        Files.writeString(page, String.join("\n",
                "[fine](a.md) [fine too](a.md#some-part) [self](#b) [web](https://example.org/x.md#y)",
                "[no file](c.md) [no heading](a.md#not-a-heading) `[in code](c.md)`",
                "```", "[in a fence](c.md)", "```", "# B", ""));
        assertEquals(List.of(page + ": c.md (no such file: c.md)",
                page + ": a.md#not-a-heading (no heading #not-a-heading in a.md)"), brokenLinks(page));
    }
}
