package io.leasehold.nativeimage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The classes of a native image, with only the resources the image carries: the jars of a sources-only
 * native build ({@link NativeSources}) behind the platform loader, every resource hidden but those the
 * image's resource configurations include. So {@code ServiceLoader} finds only registered services and
 * {@code application.properties} is not there, as in the binary ({@code -H:-UseServiceLoaderFeature}; Quarkus
 * records the file's values into a generated class instead). Code run with this as the context class
 * loader sees what the binary's start would see, minus only what native-image itself changes.
 */
final class ImageClassLoader extends URLClassLoader {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<Pattern> included;

    private ImageClassLoader(URL[] urls, List<Pattern> included) {
        super("native-image", urls, ClassLoader.getPlatformClassLoader());
        this.included = included;
    }

    static ImageClassLoader of(NativeSources sources) {
        List<Pattern> included = new ArrayList<>();
        List<URL> urls = new ArrayList<>();
        for (Path jar : sources.jars()) {
            included.addAll(resourcePatterns(jar));
            try {
                urls.add(jar.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new IllegalStateException(e);
            }
        }
        return new ImageClassLoader(urls.toArray(URL[]::new), List.copyOf(included));
    }

    boolean carries(String resource) {
        for (Pattern p : included) {
            if (p.matcher(resource).matches()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public URL getResource(String name) {
        return carries(name) ? super.getResource(name) : null;
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return carries(name) ? super.getResources(name) : Collections.emptyEnumeration();
    }

    @Override
    public InputStream getResourceAsStream(String name) {
        return carries(name) ? super.getResourceAsStream(name) : null;
    }

    /** Every include of the jar's {@code resource-config.json} (regex) and {@code reachability-metadata.json} (glob) files. */
    private static List<Pattern> resourcePatterns(Path jar) {
        List<Pattern> out = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                String name = entry.getName();
                if (!name.startsWith("META-INF/native-image/")) {
                    continue;
                }
                if (name.endsWith("resource-config.json")) {
                    JsonNode resources = read(zip, entry).path("resources");
                    // {"resources": {"includes": [...]}} and the older {"resources": [...]}
                    JsonNode includes = resources.isArray() ? resources : resources.path("includes");
                    includes.forEach(i -> out.add(Pattern.compile(i.path("pattern").asText())));
                } else if (name.endsWith("reachability-metadata.json")) {
                    read(zip, entry).path("resources").forEach(r -> {
                        if (r.has("glob")) {
                            out.add(glob(r.path("glob").asText()));
                        }
                    });
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static JsonNode read(ZipFile zip, ZipEntry entry) throws IOException {
        try (InputStream in = zip.getInputStream(entry)) {
            return JSON.readTree(in);
        }
    }

    private static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            if (c == '*' && i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append("[^/]*");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
