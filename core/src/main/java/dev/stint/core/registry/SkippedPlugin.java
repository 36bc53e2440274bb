package dev.stint.core.registry;

import java.nio.file.Path;

/**
 * A plugin jar the operator did not load, and why. The operator runs without it.
 *
 * @param jar the jar in the plugins directory
 * @param reason why it was skipped, as one sentence
 */
public record SkippedPlugin(Path jar, String reason) {

  /** For logs: {@code Skipped plugin /opt/stint/plugins/x.jar: <reason>}. */
  public String describe() {
    return "Skipped plugin " + jar + ": " + reason;
  }
}
