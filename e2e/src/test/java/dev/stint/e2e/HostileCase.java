package dev.stint.e2e;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One generated spec: the job, what it should come to, and the words a refusal or failure must contain. */
final class HostileCase {
  /** What a spec should come to. */
  enum Expect {
    /** Refused by the API server, or ended {@code Failed=True}, either naming one of the case's words. */
    INVALID,
    /** Accepted, {@code Created=True}, never {@code Failed}. */
    VALID
  }

  /** Another job's object holding the name of one of this job's children, made before the job is created. */
  record HeldName(String holder, String objectKind, String name) { }

  final int number;
  final HostileKind kind;
  final String name;
  final String title;
  final Map<String, Object> job;
  Expect expect;
  List<String> words = List.of();
  /** Made before the job is created; null when the case needs none. */
  HeldName heldName;
  String outcome = "";
  String violation;

  HostileCase(int number, HostileKind kind, String name, String title, Map<String, Object> job) {
    this.number = number;
    this.kind = kind;
    this.name = name;
    this.title = title;
    this.job = job;
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> specs() {
    return (Map<String, Object>) ((Map<String, Object>) job.get("spec")).get(kind.field());
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> replica(String type) {
    return (Map<String, Object>) specs().get(type);
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> runPolicy() {
    return (Map<String, Object>) ((Map<String, Object>) job.get("spec"))
        .computeIfAbsent("runPolicy", k -> new LinkedHashMap<String, Object>());
  }

  /** The pod spec of a type's template. */
  @SuppressWarnings("unchecked")
  Map<String, Object> podSpec(String type) {
    return (Map<String, Object>) ((Map<String, Object>) replica(type).get("template")).get("spec");
  }

  @SuppressWarnings("unchecked")
  List<Map<String, Object>> containers(String type) {
    return (List<Map<String, Object>>) podSpec(type).get("containers");
  }

  /** Suspended jobs get no pods: how a job with thousands of replicas stays cheap. */
  void suspend() {
    runPolicy().put("suspend", true);
  }

  int totalReplicas() {
    int total = 0;
    for (String type : specs().keySet()) {
      Object replicas = replica(type).get("replicas");
      total += replicas == null ? kind.defaultReplicas(type) : ((Number) replicas).intValue();
    }
    return total;
  }

  String describe() {
    return "#" + number + " " + kind.kind() + " " + name + " (" + title + ", expected " + expect + ")";
  }
}
