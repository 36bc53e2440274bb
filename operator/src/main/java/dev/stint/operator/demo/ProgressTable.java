package dev.stint.operator.demo;

import dev.stint.spi.TrainingFramework;
import dev.stint.spi.TrainingJob;
import dev.stint.spi.api.JobCondition;
import dev.stint.spi.api.JobStatus;
import dev.stint.spi.api.ReplicaSpec;
import dev.stint.spi.api.ReplicaStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One line per job for the demo's live view: JOB | KIND | STATE | SUSPENSIONS | REPLICAS | PODS | AGE. Pure: it only
 * formats what it is given.
 */
final class ProgressTable {
  static final List<String> HEADER = List.of("JOB", "KIND", "STATE", "SUSPENSIONS", "REPLICAS", "PODS", "AGE");
  private static final List<String> POD_STATES = List.of("Pending", "Running", "Succeeded", "Failed", "Terminating");

  /** The cells of one job's line. */
  record Row(String job, String kind, String state, String suspensions, String replicas, String pods, String age) {
    List<String> cells() {
      return List.of(job, kind, state, suspensions, replicas, pods, age);
    }

    /** The row without its age, which changes every second: what the demo compares to decide to print. */
    Row withoutAge() {
      return new Row(job, kind, state, suspensions, replicas, pods, "");
    }
  }

  private ProgressTable() { }

  static Row row(TrainingFramework<?> framework, TrainingJob<?> job, List<Pod> pods, Instant now) {
    return new Row(job.getMetadata().getName(), job.getKind(), state(job.getStatus()), suspensions(job.getStatus()),
        replicas(framework, job), pods(pods), age(job.getMetadata().getCreationTimestamp(), now));
  }

  /**
   * {@code status.outcome}, except {@code Resumed} for a resumed job whose pods are not all running yet (its outcome is
   * Created again, which would read as if it had never run). Without an outcome: the type of the last condition that
   * is True (conditions move to the end when they change), else the last.
   */
  static String state(JobStatus status) {
    List<JobCondition> conditions = status == null || status.getConditions() == null ? List.of()
        : status.getConditions();
    if (status != null && status.getOutcome() != null) {
      return "Created".equals(status.getOutcome()) && resumed(status) ? "Resumed" : status.getOutcome();
    }
    if (conditions.isEmpty()) {
      return "-";
    }
    for (int i = conditions.size() - 1; i >= 0; i--) {
      if (conditions.get(i).isTrue()) {
        return conditions.get(i).getType();
      }
    }
    JobCondition last = conditions.get(conditions.size() - 1);
    return last.getType() + "=" + last.getStatus();
  }

  private static boolean resumed(JobStatus status) {
    return status.condition("Suspended").filter(c -> "False".equals(c.getStatus()) && c.getReason() != null
        && c.getReason().endsWith("Resumed")).isPresent();
  }

  /** {@code status.suspensions}: how many times the job was suspended after it had started. */
  static String suspensions(JobStatus status) {
    return status == null || status.getSuspensions() == null ? "0" : status.getSuspensions().toString();
  }

  /** {@code Master 1/1 running; Worker 0/2 running, 2 succeeded}: active of desired, then what has ended. */
  static String replicas(TrainingFramework<?> framework, TrainingJob<?> job) {
    Map<String, ReplicaSpec> specs = job.getSpec() == null || job.getSpec().replicaSpecs() == null ? Map.of()
        : job.getSpec().replicaSpecs();
    Map<String, ReplicaStatus> statuses = job.getStatus() == null || job.getStatus().getReplicaStatuses() == null
        ? Map.of() : job.getStatus().getReplicaStatuses();
    List<String> parts = new ArrayList<>();
    for (String type : framework.replicaTypes()) {
      ReplicaSpec spec = specs.get(type);
      if (spec == null) {
        continue;
      }
      ReplicaStatus rs = statuses.getOrDefault(type, new ReplicaStatus());
      StringBuilder part = new StringBuilder(type + " " + rs.active() + "/" + spec.replicasOrDefault() + " running");
      appendCount(part, rs.succeeded(), "succeeded");
      appendCount(part, rs.failed(), "failed");
      appendCount(part, rs.terminating(), "terminating");
      parts.add(part.toString());
    }
    return parts.isEmpty() ? "-" : String.join("; ", parts);
  }

  private static void appendCount(StringBuilder part, int count, String what) {
    if (count > 0) {
      part.append(", ").append(count).append(' ').append(what);
    }
  }

  /** Pod counts by phase, such as {@code 2 Running, 1 Succeeded}. */
  static String pods(List<Pod> pods) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    POD_STATES.forEach(s -> counts.put(s, 0));
    for (Pod pod : pods) {
      counts.merge(podState(pod), 1, Integer::sum);
    }
    String text = counts.entrySet().stream().filter(e -> e.getValue() > 0)
        .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    return text.isEmpty() ? "-" : text;
  }

  private static String podState(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return "Terminating";
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return phase == null ? "Pending" : phase;
  }

  static String age(String creationTimestamp, Instant now) {
    if (creationTimestamp == null) {
      return "-";
    }
    try {
      long seconds = Math.max(0, Duration.between(OffsetDateTime.parse(creationTimestamp).toInstant(), now)
          .toSeconds());
      return seconds < 60 ? seconds + "s" : (seconds / 60) + "m" + (seconds % 60) + "s";
    } catch (DateTimeParseException e) {
      return "-";
    }
  }

  /** The rows under a header, each column as wide as its widest cell. */
  static String render(List<Row> rows) {
    List<List<String>> lines = new ArrayList<>();
    lines.add(HEADER);
    rows.forEach(r -> lines.add(r.cells()));
    int[] widths = new int[HEADER.size()];
    for (List<String> line : lines) {
      for (int i = 0; i < widths.length; i++) {
        widths[i] = Math.max(widths[i], line.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> line : lines) {
      for (int i = 0; i < widths.length; i++) {
        String cell = line.get(i);
        out.append(i == widths.length - 1 ? cell : String.format("%-" + widths[i] + "s  ", cell));
      }
      out.append('\n');
    }
    return out.toString();
  }
}
