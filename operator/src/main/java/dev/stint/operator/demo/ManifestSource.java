package dev.stint.operator.demo;

import java.io.IOException;
import java.util.List;

/**
 * Where the demo reads YAML from: a directory on disk, the copy packaged in the jar, or (in tests) a fixed list.
 */
public interface ManifestSource {

  /** For messages: {@code directory ./crds} or {@code crds/ in the jar}. */
  String description();

  /** Every YAML file of the source, in a stable order (by path). */
  List<Manifest> manifests() throws IOException;

  /**
   * One YAML file; it may hold several documents.
   *
   * @param origin its path, for messages
   * @param yaml its content
   */
  record Manifest(String origin, String yaml) { }

  /** A fixed list, for tests and for callers that build manifests in code. */
  static ManifestSource of(String description, List<Manifest> manifests) {
    return new ManifestSource() {
      @Override public String description() { return description; }

      @Override public List<Manifest> manifests() { return List.copyOf(manifests); }
    };
  }
}
