package dev.stint.operator.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import java.time.Instant;
import java.util.Map;

/**
 * {@code --log-format=text}: one readable line per event, {@code time LEVEL Logger [Kind namespace/name] message},
 * then the error on the next lines ({@link LoggedError}). The job's part is there when the line is about a job
 * ({@link LogFields}); the thread is left out, as the job says more.
 */
public final class TextLogLayout extends LayoutBase<ILoggingEvent> {

  @Override
  public String doLayout(ILoggingEvent event) {
    StringBuilder line = new StringBuilder(160)
        .append(Instant.ofEpochMilli(event.getTimeStamp()))
        .append(' ').append(String.format("%-5s", event.getLevel()))
        .append(' ').append(LogFields.shortName(event.getLoggerName()));
    String job = job(event.getMDCPropertyMap());
    if (job != null) {
      line.append(" [").append(job).append(']');
    }
    line.append(' ').append(event.getFormattedMessage());
    if (event.getThrowableProxy() != null) {
      line.append(System.lineSeparator()).append(LoggedError.describe(event.getThrowableProxy()));
    }
    return line.append(System.lineSeparator()).toString();
  }

  /** {@code Kind namespace/name}, with the parts that are known; null when none is. */
  private static String job(Map<String, String> mdc) {
    String kind = mdc.get(LogFields.KIND);
    String namespace = mdc.get(LogFields.NAMESPACE);
    String name = mdc.get(LogFields.NAME);
    if (kind == null && namespace == null && name == null) {
      return null;
    }
    String object = namespace == null ? (name == null ? "" : name) : namespace + "/" + (name == null ? "" : name);
    return kind == null ? object : object.isEmpty() ? kind : kind + " " + object;
  }
}
