package dev.stint.core.registry;

import dev.stint.spi.TrainingFramework;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * A framework the operator found at start, and where it came from: built in (on the class path) or from a plugin jar.
 *
 * @param framework the framework
 * @param source where it was loaded from
 */
public record DiscoveredFramework(TrainingFramework<?> framework, Source source) {

  /** Where a framework was loaded from. */
  public sealed interface Source permits BuiltIn, Plugin { }

  /**
   * A built-in framework, found on the class path through {@code META-INF/services}.
   *
   * @param classPathEntry the jar (or classes directory) holding the framework class
   */
  public record BuiltIn(String classPathEntry) implements Source {
    @Override public String toString() {
      return "built in, " + classPathEntry;
    }
  }

  /**
   * A framework from a plugin jar of the plugins directory, loaded in the plugin's own class loader.
   *
   * @param id the jar's {@code Plugin-Id}
   * @param version the jar's {@code Plugin-Version}
   * @param jar the jar
   */
  public record Plugin(String id, String version, Path jar) implements Source {
    @Override public String toString() {
      return "plugin " + id + " " + version + ", " + jar;
    }
  }

  /** A built-in framework; its source is the class path entry its class came from. */
  public static DiscoveredFramework builtIn(TrainingFramework<?> framework) {
    CodeSource code = framework.getClass().getProtectionDomain().getCodeSource();
    String entry = code == null || code.getLocation() == null ? "unknown location" : code.getLocation().toString();
    return new DiscoveredFramework(framework, new BuiltIn(entry));
  }

  public boolean isBuiltIn() {
    return source instanceof BuiltIn;
  }

  /** The framework's name. */
  public String name() {
    return framework.name();
  }

  /** For logs: {@code jax (JAXJob kubeflow.org/v1, plugin jax 0.1.0, /opt/stint/plugins/jax.jar)}. */
  public String describe() {
    return framework.name() + " (" + HasMetadata.getKind(framework.jobType()) + " "
        + HasMetadata.getApiVersion(framework.jobType()) + ", " + source + ")";
  }
}
