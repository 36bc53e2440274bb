package dev.stint.operator.plugins;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/** Copies of a real plugin jar with changed manifest attributes, to test how the operator treats them. */
final class PluginJars {

  private PluginJars() { }

  /** Copies {@code jar} to {@code copy}, with the given manifest attributes set; returns the copy. */
  static Path withManifest(Path jar, Path copy, Map<String, String> attributes) throws IOException {
    try (JarFile in = new JarFile(jar.toFile()); OutputStream file = Files.newOutputStream(copy)) {
      Manifest manifest = new Manifest(in.getManifest());
      attributes.forEach((name, value) -> manifest.getMainAttributes().putValue(name, value));
      try (JarOutputStream out = new JarOutputStream(file, manifest)) {
        for (JarEntry entry : Collections.list(in.entries())) {
          if (entry.getName().equals(JarFile.MANIFEST_NAME) || entry.getName().equals("META-INF/")) {
            continue;
          }
          out.putNextEntry(new JarEntry(entry.getName()));
          try (InputStream content = in.getInputStream(entry)) {
            content.transferTo(out);
          }
          out.closeEntry();
        }
      }
    }
    return copy;
  }
}
