package dev.stint.core.kueue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One {@code metav1.Condition} of a Workload, and the apimachinery rule for setting one in a list
 * ({@code meta.SetStatusCondition}): the transition time changes only when the status does.
 */
public record WorkloadCondition(String type, String status, String reason, String message,
                                String lastTransitionTime, Long observedGeneration) {

  public boolean isTrue() {
    return "True".equals(status);
  }

  /** The condition as the API server writes it, for a patch body. */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("type", type);
    map.put("status", status);
    map.put("reason", reason);
    map.put("message", message == null ? "" : message);
    map.put("lastTransitionTime", lastTransitionTime);
    if (observedGeneration != null) {
      map.put("observedGeneration", observedGeneration);
    }
    return map;
  }

  static WorkloadCondition of(Map<?, ?> map) {
    Object generation = map.get("observedGeneration");
    return new WorkloadCondition(string(map.get("type")), string(map.get("status")), string(map.get("reason")),
        string(map.get("message")), string(map.get("lastTransitionTime")),
        generation instanceof Number n ? n.longValue() : null);
  }

  /**
   * The list with {@code next} set: replacing the condition of its type in place (appended when absent), keeping the
   * old transition time when the status is unchanged.
   */
  public static List<WorkloadCondition> set(List<WorkloadCondition> conditions, WorkloadCondition next) {
    List<WorkloadCondition> result = new ArrayList<>();
    boolean replaced = false;
    for (WorkloadCondition c : conditions) {
      if (c.type().equals(next.type())) {
        String time = Objects.equals(c.status(), next.status()) ? c.lastTransitionTime() : next.lastTransitionTime();
        result.add(new WorkloadCondition(next.type(), next.status(), next.reason(), next.message(), time,
            next.observedGeneration()));
        replaced = true;
      } else {
        result.add(c);
      }
    }
    if (!replaced) {
      result.add(next);
    }
    return result;
  }

  private static String string(Object value) {
    return value == null ? null : value.toString();
  }
}
