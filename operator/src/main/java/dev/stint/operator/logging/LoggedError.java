package dev.stint.operator.logging;

import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import dev.stint.core.kube.ApiRefusal;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * How a log line shows the exception it carries. A refusal of the API server (a 4xx answer: a namespace being
 * terminated, a conflict, a missing right) is expected in an operator's life and is said in one line, with the
 * server's own words; anything else keeps its stack trace, which is what finding a bug needs.
 */
final class LoggedError {
  private LoggedError() {
  }

  /** {@code Class: message}, then the stack trace unless the error is an expected API refusal. */
  static String describe(IThrowableProxy error) {
    KubernetesClientException refusal = refusalIn(error);
    if (refusal == null) {
      return ThrowableProxyUtil.asString(error).stripTrailing();
    }
    ApiRefusal api = ApiRefusal.of(refusal);
    String line = error.getClassName() + ": ";
    if (error instanceof ThrowableProxy proxy && proxy.getThrowable() == refusal) {
      return line + "HTTP " + refusal.getCode() + " " + api.cause() + ": " + api.message();
    }
    return line + error.getMessage() + " (caused by HTTP " + refusal.getCode() + " " + api.cause() + ": "
        + api.message() + ")";
  }

  /** Whether {@link #describe} says it in one line. */
  static boolean expectedRefusal(IThrowableProxy error) {
    return refusalIn(error) != null;
  }

  /** The API server's 4xx answer in the exception or its causes, or null. */
  private static KubernetesClientException refusalIn(IThrowableProxy error) {
    if (!(error instanceof ThrowableProxy proxy)) {
      return null; // deserialized events carry no exception object
    }
    for (Throwable t = proxy.getThrowable(); t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KubernetesClientException e && e.getCode() >= 400 && e.getCode() < 500) {
        return e;
      }
    }
    return null;
  }
}
