package dev.stint.core.serving;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** An error said in one line: the API server's answer when there is one in the causes, else the innermost message. */
final class ApiErrors {
  private ApiErrors() { }

  static String oneLine(Throwable error) {
    Throwable innermost = error;
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException e && e.getCode() > 0) {
        String reason = e.getStatus() != null && e.getStatus().getReason() != null ? " " + e.getStatus().getReason()
            : "";
        String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
            : e.getMessage();
        return "HTTP " + e.getCode() + reason + ": " + message;
      }
      innermost = t;
    }
    String message = innermost.getMessage();
    return message == null || message.isBlank() ? innermost.getClass().getSimpleName() : message;
  }
}
