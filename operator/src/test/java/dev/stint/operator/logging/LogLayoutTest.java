package dev.stint.operator.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogLayoutTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long NOON = 1_780_000_000_000L; // 2026-05-28T20:26:40Z
  private final LoggerContext context = new LoggerContext();

  @Test
  void jsonHasTheFieldsAndTheJobsMdc() throws Exception {
    LoggingEvent event = event(Map.of("kind", "PyTorchJob", "namespace", "team-a", "name", "t1", "other", "x"),
        Level.INFO, "Created pod {}", null, "t1-master-0");

    JsonNode line = json(event);

    assertThat(line.get("time").asText()).isEqualTo("2026-05-28T20:26:40Z");
    assertThat(line.get("level").asText()).isEqualTo("INFO");
    assertThat(line.get("logger").asText()).isEqualTo("ActionApplier");
    assertThat(line.get("message").asText()).isEqualTo("Created pod t1-master-0");
    assertThat(line.get("kind").asText()).isEqualTo("PyTorchJob");
    assertThat(line.get("namespace").asText()).isEqualTo("team-a");
    assertThat(line.get("name").asText()).isEqualTo("t1");
    assertThat(line.has("other")).isFalse();
    assertThat(line.has("error")).isFalse();
  }

  @Test
  void jsonLeavesOutTheJobFieldsOfALineAboutNoJob() throws Exception {
    JsonNode line = json(event(Level.WARN, "Stopping", null));

    assertThat(line.has("kind")).isFalse();
    assertThat(line.has("namespace")).isFalse();
    assertThat(line.has("name")).isFalse();
  }

  @Test
  void anExpectedRefusalIsOneLine() throws Exception {
    LoggingEvent event = event(Level.WARN, "Could not create", terminating());

    String json = new JsonLogLayout().doLayout(event);
    String text = new TextLogLayout().doLayout(event);

    assertThat(json.lines()).hasSize(1);
    assertThat(JSON.readTree(json).get("error").asText()).isEqualTo("io.fabric8.kubernetes.client."
        + "KubernetesClientException: HTTP 403 NamespaceTerminating: pods \"t1-master-0\" is forbidden: unable to "
        + "create new content in namespace term1 because it is being terminated");
    assertThat(text.lines()).hasSize(2);
    assertThat(text.lines().toList().get(1)).startsWith("io.fabric8.kubernetes.client.KubernetesClientException: "
        + "HTTP 403 NamespaceTerminating: ").doesNotContain("\tat ");
  }

  @Test
  void aWrappedRefusalIsOneLineNamingBoth() throws Exception {
    RuntimeException wrapped = new RuntimeException("reconcile failed", terminating());

    String error = JSON.readTree(new JsonLogLayout().doLayout(event(Level.ERROR, "x", wrapped))).get("error")
        .asText();

    assertThat(error).startsWith("java.lang.RuntimeException: reconcile failed (caused by HTTP 403 "
        + "NamespaceTerminating: ").doesNotContain("\tat ");
  }

  @Test
  void anUnexpectedErrorKeepsItsStack() throws Exception {
    LoggingEvent event = event(Level.ERROR, "Informer stopped", new IllegalStateException("boom",
        new KubernetesClientException("server down", 503, null)));

    String error = json(event).get("error").asText();
    String text = new TextLogLayout().doLayout(event);

    assertThat(error).startsWith("java.lang.IllegalStateException: boom").contains("\tat dev.stint.operator")
        .contains("Caused by: io.fabric8.kubernetes.client.KubernetesClientException: server down");
    assertThat(text).contains("\tat dev.stint.operator");
  }

  @Test
  void textIsOneReadableLineWithTheJob() {
    LoggingEvent event = event(Map.of("kind", "TFJob", "namespace", "ml", "name", "mnist"), Level.WARN, "Suspended",
        null);

    assertThat(new TextLogLayout().doLayout(event))
        .isEqualTo("2026-05-28T20:26:40Z WARN  ActionApplier [TFJob ml/mnist] Suspended" + System.lineSeparator());
    assertThat(new TextLogLayout().doLayout(event(Level.INFO, "Stint is running", null)))
        .isEqualTo("2026-05-28T20:26:40Z INFO  ActionApplier Stint is running" + System.lineSeparator());
  }

  private LoggingEvent event(Level level, String message, Throwable error, Object... args) {
    return event(Map.of(), level, message, error, args);
  }

  private LoggingEvent event(Map<String, String> mdc, Level level, String message, Throwable error,
                             Object... args) {
    LoggingEvent event = new LoggingEvent("x", context.getLogger("dev.stint.core.kube.ActionApplier"), level,
        message, error, args);
    event.setTimeStamp(NOON);
    event.setMDCPropertyMap(mdc);
    return event;
  }

  private static JsonNode json(LoggingEvent event) throws Exception {
    String line = new JsonLogLayout().doLayout(event);
    assertThat(line).endsWith(System.lineSeparator());
    return JSON.readTree(line);
  }

  private static KubernetesClientException terminating() {
    String message = "pods \"t1-master-0\" is forbidden: unable to create new content in namespace term1 because it "
        + "is being terminated";
    return new KubernetesClientException(new StatusBuilder().withCode(403).withReason("Forbidden")
        .withMessage(message).build());
  }
}
