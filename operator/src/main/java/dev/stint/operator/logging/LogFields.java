package dev.stint.operator.logging;

import dev.stint.core.reconciler.JobLogContext;
import java.util.List;

/** The fields both layouts print beside the message. */
final class LogFields {
  static final String KIND = JobLogContext.KIND;
  static final String NAMESPACE = JobLogContext.NAMESPACE;
  static final String NAME = JobLogContext.NAME;
  static final List<String> JOB_KEYS = List.of(KIND, NAMESPACE, NAME);

  private LogFields() {
  }

  /** {@code dev.stint.core.kube.EventRecorder} is {@code EventRecorder}: the class says enough in an operator's log. */
  static String shortName(String loggerName) {
    return loggerName.substring(loggerName.lastIndexOf('.') + 1);
  }
}
