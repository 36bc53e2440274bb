package dev.stint.core.registry;

/** Why a plugin jar cannot be used; the message is the reason, as logged. Discovery skips the jar. */
final class PluginRejected extends Exception {
  private static final long serialVersionUID = 1L;

  PluginRejected(String reason) {
    super(reason, null, false, false);
  }
}
