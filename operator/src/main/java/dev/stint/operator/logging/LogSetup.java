package dev.stint.operator.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.LayoutBase;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import dev.stint.operator.OperatorOptions.LogFormat;
import java.nio.charset.StandardCharsets;
import org.slf4j.LoggerFactory;

/**
 * The operator's logging (Logback), set up in code from {@code --log-format} so that the jar needs no configuration
 * file: every event on standard error (standard output is the demo's table), INFO and above, or WARN and above when
 * quiet. A Logback file given with {@code -Dlogback.configurationFile} replaces all of it.
 */
public final class LogSetup {
  /** Logback's own property: a user who names a configuration file gets exactly that one. */
  static final String CONFIGURATION_FILE = "logback.configurationFile";

  private LogSetup() {
  }

  /**
   * Replaces the logging configuration.
   *
   * @param quiet WARN and above only (the demo, whose output is its table)
   */
  public static void configure(LogFormat format, boolean quiet) {
    if (System.getProperty(CONFIGURATION_FILE) != null) {
      return;
    }
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    LayoutBase<ILoggingEvent> layout = format == LogFormat.JSON ? new JsonLogLayout() : new TextLogLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setLayout(layout);
    encoder.setCharset(StandardCharsets.UTF_8);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("stderr");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(quiet ? Level.WARN : Level.INFO);
    root.addAppender(stderr);
    // MPIJob is served as kubeflow.org/v2beta1, the MPI Operator's version; fabric8 would warn that it is not stable
    context.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils").setLevel(Level.ERROR);
    // an informer that cannot start fails its kind's start, which Stint reports in one line naming the cause (the
    // kind is down, tried again); JOSDK's own line would add a stack trace and say, wrongly, that the operator stops
    context.getLogger("io.javaoperatorsdk.operator.processing.event.source.informer.InformerWrapper")
        .setLevel(Level.OFF);
    // Stint logs one line for the frameworks it loaded and one per skipped plugin; pf4j's INFO lines would repeat them
    context.getLogger("org.pf4j").setLevel(Level.WARN);
    // a listed class it cannot load: pf4j logs an ERROR with a stack trace, and Stint's WARN says which and why
    context.getLogger("org.pf4j.AbstractExtensionFinder").setLevel(Level.OFF);
  }
}
