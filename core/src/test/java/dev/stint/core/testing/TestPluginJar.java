package dev.stint.core.testing;

import dev.stint.spi.SpiVersion;
import dev.stint.spi.TrainingFramework;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Writes plugin jars for tests from classes of the test class path:
 * {@code TestPluginJar.of("a").framework(TestFramework.class).classes(TestJob.class).writeTo(dir)}. The jar holds
 * copies of the class files (with their nested classes), so a plugin class loader defines its own classes from it,
 * as it would for a real plugin. Manifest attributes can be changed or left out to make broken plugins.
 */
public final class TestPluginJar {
  private final String fileName;
  private final Map<String, String> manifest = new LinkedHashMap<>();
  private final List<Class<?>> classes = new ArrayList<>();
  private final List<String> services = new ArrayList<>();
  private final Map<String, String> resources = new LinkedHashMap<>();
  private final Set<String> writtenDirectories = new HashSet<>();
  private boolean withDirectoryEntries = true;

  private TestPluginJar(String id) {
    this.fileName = id + ".jar";
    manifest.put("Plugin-Id", id);
    manifest.put("Plugin-Version", "1.0.0");
    manifest.put(SpiVersion.MANIFEST_ATTRIBUTE, SpiVersion.CURRENT.toString());
  }

  /** A valid, empty plugin jar named {@code <id>.jar} with that Plugin-Id. */
  public static TestPluginJar of(String id) {
    return new TestPluginJar(id);
  }

  /** Lists a framework class in the services entry and puts it in the jar. */
  public TestPluginJar framework(Class<? extends TrainingFramework<?>> type) {
    services.add(type.getName());
    return classes(type);
  }

  /** Puts classes (and their nested classes) in the jar. */
  public TestPluginJar classes(Class<?>... types) {
    classes.addAll(List.of(types));
    return this;
  }

  /** Lists a class name in the services entry without putting anything in the jar. */
  public TestPluginJar service(String className) {
    services.add(className);
    return this;
  }

  /** Sets a manifest attribute; a null value leaves it out. */
  public TestPluginJar manifest(String name, String value) {
    if (value == null) {
      manifest.remove(name);
    } else {
      manifest.put(name, value);
    }
    return this;
  }

  public TestPluginJar resource(String path, String content) {
    resources.put(path, content);
    return this;
  }

  /** Leaves out the entries of directories, as a hand-made zip may. */
  public TestPluginJar withoutDirectoryEntries() {
    withDirectoryEntries = false;
    return this;
  }

  /** Writes the jar into {@code dir}; returns its path. */
  public Path writeTo(Path dir) {
    Path jar = dir.resolve(fileName);
    writtenDirectories.clear();
    writtenDirectories.add("META-INF/"); // JarOutputStream writes it with the manifest
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.forEach((k, v) -> mf.getMainAttributes().putValue(k, v));
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, mf)) {
      if (!services.isEmpty()) {
        put(out, "META-INF/services/" + TrainingFramework.class.getName(),
            (String.join("\n", services) + "\n").getBytes(StandardCharsets.UTF_8));
      }
      for (Map.Entry<String, String> r : resources.entrySet()) {
        put(out, r.getKey(), r.getValue().getBytes(StandardCharsets.UTF_8));
      }
      for (Class<?> type : classes) {
        for (Map.Entry<String, byte[]> classFile : classFiles(type).entrySet()) {
          put(out, classFile.getKey(), classFile.getValue());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return jar;
  }

  /** Writes an entry, after the entries of its parent directories, as jar tools do (pf4j looks directories up). */
  private void put(JarOutputStream out, String name, byte[] content) throws IOException {
    for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
      String directory = name.substring(0, slash + 1);
      if (writtenDirectories.add(directory) && withDirectoryEntries) {
        out.putNextEntry(new JarEntry(directory));
        out.closeEntry();
      }
    }
    out.putNextEntry(new JarEntry(name));
    out.write(content);
    out.closeEntry();
  }

  /**
   * The class files of a top-level class and of its nested and anonymous classes, by jar entry name, from the classes
   * directory or the jar (a test-jar) it was loaded from.
   */
  private static Map<String, byte[]> classFiles(Class<?> type) throws IOException {
    Path location;
    try {
      location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    String prefix = type.getPackageName().replace('.', '/') + "/";
    String simple = type.getSimpleName();
    Map<String, byte[]> found = new TreeMap<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.list(location.resolve(prefix))) {
        for (Path f : files.toList()) {
          if (belongsTo(f.getFileName().toString(), simple)) {
            found.put(prefix + f.getFileName(), Files.readAllBytes(f));
          }
        }
      }
      return found;
    }
    try (JarFile jar = new JarFile(location.toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        String name = entry.getName();
        if (name.startsWith(prefix) && name.indexOf('/', prefix.length()) < 0
            && belongsTo(name.substring(prefix.length()), simple)) {
          try (InputStream in = jar.getInputStream(entry)) {
            found.put(name, in.readAllBytes());
          }
        }
      }
    }
    return found;
  }

  private static boolean belongsTo(String fileName, String simpleName) {
    return fileName.equals(simpleName + ".class") || fileName.startsWith(simpleName + "$");
  }
}
