package dev.stint.operator.demo;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The YAML files ({@code *.yaml}, {@code *.yml}) under a directory, read recursively. The directory is either on disk
 * or packaged with the operator (in its jar, or in {@code target/classes} when run from the build): the demo prefers
 * {@code crds/} and {@code examples/} of the working directory, so that a checkout shows its current files, and falls
 * back to the packaged copies, so that the jar alone is enough.
 */
public final class ManifestDirectory implements ManifestSource {
  /** Folders of a sample plugin's sources and build output hold no jobs. */
  private static final List<String> SKIPPED_FOLDERS = List.of("src", "target");

  private final String description;
  private final Reader reader;

  private ManifestDirectory(String description, Reader reader) {
    this.description = description;
    this.reader = reader;
  }

  /** The directory given on the command line, which must exist. */
  public static ManifestDirectory onDisk(Path dir) {
    return new ManifestDirectory("directory " + dir, () -> fromDisk(dir));
  }

  /** {@code name} of the working directory when it exists, else the copy packaged next to {@code anchor}. */
  public static ManifestDirectory locate(String name, Class<?> anchor) {
    return locate(Path.of(name), name, codeSource(anchor));
  }

  /**
   * {@code localDir} when it exists, else the {@code name} folder packaged in {@code packaged} (a jar, or a classes
   * directory).
   */
  static ManifestDirectory locate(Path localDir, String name, Path packaged) {
    if (Files.isDirectory(localDir)) {
      return new ManifestDirectory("directory " + localDir, () -> fromDisk(localDir));
    }
    return new ManifestDirectory(name + "/ packaged in " + packaged.getFileName(), () -> packaged(name, packaged));
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public List<Manifest> manifests() throws IOException {
    return reader.read();
  }

  @FunctionalInterface
  private interface Reader {
    List<Manifest> read() throws IOException;
  }

  private static List<Manifest> fromDisk(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException("no directory " + dir);
    }
    List<Manifest> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String relative = dir.relativize(file).toString().replace('\\', '/');
        if (isManifest(relative)) {
          found.add(new Manifest(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
        }
      }
    }
    return found;
  }

  private static List<Manifest> packaged(String name, Path location) throws IOException {
    if (Files.isDirectory(location)) {
      Path dir = location.resolve(name);
      return Files.isDirectory(dir) ? fromDisk(dir) : List.of();
    }
    List<Manifest> found = new ArrayList<>();
    try (JarFile jar = new JarFile(location.toFile())) {
      List<JarEntry> entries = Collections.list(jar.entries());
      entries.sort(Comparator.comparing(JarEntry::getName));
      String prefix = name + "/";
      for (JarEntry entry : entries) {
        String path = entry.getName();
        if (!entry.isDirectory() && path.startsWith(prefix) && isManifest(path.substring(prefix.length()))) {
          try (InputStream in = jar.getInputStream(entry)) {
            found.add(new Manifest(path, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
          }
        }
      }
    }
    return found;
  }

  private static boolean isManifest(String relativePath) {
    String lower = relativePath.toLowerCase(Locale.ROOT);
    if (!lower.endsWith(".yaml") && !lower.endsWith(".yml")) {
      return false;
    }
    List<String> folders = List.of(relativePath.split("/"));
    return folders.subList(0, folders.size() - 1).stream().noneMatch(SKIPPED_FOLDERS::contains);
  }

  /** The jar (or classes directory) that holds {@code anchor}. */
  private static Path codeSource(Class<?> anchor) {
    CodeSource source = anchor.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      throw new IllegalStateException("cannot tell where " + anchor.getName() + " was loaded from");
    }
    try {
      return Path.of(source.getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("unexpected code source " + source.getLocation(), e);
    }
  }
}
