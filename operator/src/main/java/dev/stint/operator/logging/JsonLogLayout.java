package dev.stint.operator.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * {@code --log-format=json}: one JSON object per line, for a log pipeline. Fields: {@code time} (ISO 8601, UTC),
 * {@code level}, {@code logger} (the class's short name), {@code message}; {@code kind}, {@code namespace} and
 * {@code name} when the line is about a job ({@link LogFields}); {@code error} when it carries an exception
 * ({@link LoggedError}: one line for an expected API refusal, the stack trace otherwise).
 */
public final class JsonLogLayout extends LayoutBase<ILoggingEvent> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public String doLayout(ILoggingEvent event) {
    ObjectNode line = JSON.createObjectNode()
        .put("time", Instant.ofEpochMilli(event.getTimeStamp()).toString())
        .put("level", event.getLevel().toString())
        .put("logger", LogFields.shortName(event.getLoggerName()))
        .put("message", event.getFormattedMessage());
    for (String key : LogFields.JOB_KEYS) {
      String value = event.getMDCPropertyMap().get(key);
      if (value != null) {
        line.put(key, value);
      }
    }
    if (event.getThrowableProxy() != null) {
      line.put("error", LoggedError.describe(event.getThrowableProxy()));
    }
    try {
      return JSON.writeValueAsString(line) + System.lineSeparator(); // Jackson escapes the new lines of a stack
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a tree of strings is always JSON", e);
    }
  }
}
