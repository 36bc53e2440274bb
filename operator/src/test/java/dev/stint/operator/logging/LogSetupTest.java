package dev.stint.operator.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import dev.stint.operator.OperatorOptions.LogFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

@SuppressWarnings("unchecked") // Logback's appenders and encoders are generic, and found by name
class LogSetupTest {
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

  @AfterEach
  void restoreTheTestConfiguration() throws Exception {
    context.reset();
    new ContextInitializer(context).autoConfig();
  }

  @Test
  void jsonOnStandardErrorAtInfo() {
    LogSetup.configure(LogFormat.JSON, false);

    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.INFO);
    assertThat(layoutOf(root)).isInstanceOf(JsonLogLayout.class);
    assertThat(((ConsoleAppender<ILoggingEvent>) root.getAppender("stderr")).getTarget()).isEqualTo("System.err");
  }

  @Test
  void quietIsWarningsOnlySoThatTheDemosTableStaysReadable() {
    LogSetup.configure(LogFormat.TEXT, true);

    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    assertThat(root.getLevel()).isEqualTo(Level.WARN);
    assertThat(context.getLogger("dev.stint.core.StintOperator").isInfoEnabled()).isFalse();
    assertThat(layoutOf(root)).isInstanceOf(TextLogLayout.class);
  }

  private static Object layoutOf(Logger root) {
    ConsoleAppender<ILoggingEvent> stderr = (ConsoleAppender<ILoggingEvent>) root.getAppender("stderr");
    return ((LayoutWrappingEncoder<ILoggingEvent>) stderr.getEncoder()).getLayout();
  }
}
