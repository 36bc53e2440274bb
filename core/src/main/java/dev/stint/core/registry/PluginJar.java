package dev.stint.core.registry;

import dev.stint.spi.SpiVersion;
import dev.stint.spi.TrainingFramework;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * What a plugin jar says about itself, read and checked before pf4j loads it, so that a wrong jar is refused with a
 * reason a person can act on (pf4j alone would log a stack trace, or load the jar and find nothing in it).
 *
 * @param path the jar
 * @param pluginId {@code Plugin-Id}
 * @param pluginVersion {@code Plugin-Version}
 * @param spiVersion {@code Stint-Spi-Version}, compatible with this operator's
 * @param frameworkClasses the class names listed in {@code META-INF/services/dev.stint.spi.TrainingFramework}
 */
record PluginJar(Path path, String pluginId, String pluginVersion, SpiVersion spiVersion,
                 List<String> frameworkClasses) {

  static final String PLUGIN_ID = "Plugin-Id";
  static final String PLUGIN_VERSION = "Plugin-Version";
  static final String SERVICES_ENTRY = "META-INF/services/" + TrainingFramework.class.getName();

  /**
   * Reads and checks a jar.
   *
   * @throws PluginRejected when it is not a readable jar, lacks a manifest attribute, was built against an SPI version
   *     this operator cannot run, or lists no framework
   */
  static PluginJar read(Path path) throws PluginRejected {
    Manifest manifest;
    List<String> frameworks;
    try (JarFile jar = new JarFile(path.toFile())) {
      manifest = jar.getManifest();
      frameworks = frameworkClasses(jar);
    } catch (IOException | SecurityException e) {
      throw new PluginRejected("not a readable jar (" + e.getMessage() + ")");
    }
    if (manifest == null) {
      throw new PluginRejected("no META-INF/MANIFEST.MF; a plugin jar declares " + PLUGIN_ID + ", "
          + PLUGIN_VERSION + " and " + SpiVersion.MANIFEST_ATTRIBUTE + " there");
    }
    Attributes attributes = manifest.getMainAttributes();
    String id = required(attributes, PLUGIN_ID, "the plugin's id");
    String version = required(attributes, PLUGIN_VERSION, "the plugin's version");
    SpiVersion spi = compatibleSpiVersion(required(attributes, SpiVersion.MANIFEST_ATTRIBUTE,
        "the Stint SPI version it was built against; this operator implements " + SpiVersion.CURRENT));
    if (frameworks.isEmpty()) {
      throw new PluginRejected("declares no framework: no class listed in " + SERVICES_ENTRY);
    }
    return new PluginJar(path, id, version, spi, List.copyOf(frameworks));
  }

  private static String required(Attributes attributes, String name, String meaning) throws PluginRejected {
    String value = attributes.getValue(name);
    if (value == null || value.isBlank()) {
      throw new PluginRejected("its manifest has no " + name + " (" + meaning + ")");
    }
    return value.trim();
  }

  private static SpiVersion compatibleSpiVersion(String declared) throws PluginRejected {
    SpiVersion version;
    try {
      version = SpiVersion.parse(declared);
    } catch (IllegalArgumentException e) {
      throw new PluginRejected("its " + SpiVersion.MANIFEST_ATTRIBUTE + " " + e.getMessage());
    }
    if (!SpiVersion.CURRENT.runs(version)) {
      SpiVersion current = SpiVersion.CURRENT;
      String runs = current.minor() == 0 ? "only plugins built against " + current
          : "plugins built against " + current.major() + ".0 to " + current;
      String change = version.major() == 1 && current.major() == 2
          ? ". To move it to SPI 2.0, rebuild it against stint-spi 2.0 with Stint-Spi-Version: 2.0, its framework "
            + "implementing the capability interface of each method it overrides that moved: " + MovedMethods.all()
          : "";
      throw new PluginRejected("built against Stint SPI " + version + ", which this operator (SPI " + current
          + ") cannot run; it runs " + runs + change);
    }
    return version;
  }

  /** The provider class names of the services entry, as {@link java.util.ServiceLoader} reads them. */
  private static List<String> frameworkClasses(JarFile jar) throws IOException {
    JarEntry entry = jar.getJarEntry(SERVICES_ENTRY);
    if (entry == null) {
      return List.of();
    }
    String text;
    try (InputStream in = jar.getInputStream(entry)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> names = new ArrayList<>();
    for (String line : text.split("\\R")) {
      int comment = line.indexOf('#');
      String name = (comment < 0 ? line : line.substring(0, comment)).trim();
      if (!name.isEmpty() && !names.contains(name)) {
        names.add(name);
      }
    }
    return names;
  }
}
