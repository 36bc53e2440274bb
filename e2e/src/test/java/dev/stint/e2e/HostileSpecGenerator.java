package dev.stint.e2e;

import static dev.stint.e2e.HostileKind.KINDS;
import static dev.stint.e2e.HostileKind.PYTORCH;
import static dev.stint.e2e.HostileKind.TF;

import dev.stint.e2e.HostileCase.Expect;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The hostile specs, generated from a seed: a plain seeded {@link SplittableRandom}, so the same seed gives the same
 * specs in the same order.
 */
final class HostileSpecGenerator {
  final SplittableRandom random;
  int count;

  HostileSpecGenerator(long seed) {
    this.random = new SplittableRandom(seed);
  }

  int between(int from, int to) {
    return random.nextInt(from, to + 1);
  }

  <T> T pick(List<T> values) {
    return values.get(random.nextInt(values.size()));
  }

  /** A unique DNS-1035 name of exactly this length (at least 6). */
  String name(int length) {
    String head = "h" + Integer.toString(count, 36) + "-";
    StringBuilder name = new StringBuilder(head);
    while (name.length() < length) {
      name.append((char) ('a' + random.nextInt(26)));
    }
    return name.toString();
  }

  /** A valid job of this kind: small, with one or two replicas of the usual types. */
  HostileCase valid(HostileKind kind, String name, String title) {
    Map<String, Object> specs = new LinkedHashMap<>();
    if (kind == PYTORCH) {
      specs.put("Master", replica(kind, 1));
      specs.put("Worker", replica(kind, between(1, 2)));
    } else if (kind == TF) {
      if (random.nextBoolean()) specs.put("Chief", replica(kind, 1));
      specs.put("PS", replica(kind, 1));
      specs.put("Worker", replica(kind, between(1, 2)));
    } else {
      specs.put("Launcher", replica(kind, 1));
      specs.put("Worker", replica(kind, between(1, 2)));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put(kind.field(), specs);
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", name);
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("apiVersion", kind.apiVersion());
    job.put("kind", kind.kind());
    job.put("metadata", metadata);
    job.put("spec", spec);
    HostileCase c = new HostileCase(count, kind, name, title, job);
    c.expect = Expect.VALID;
    return c;
  }

  static Map<String, Object> replica(HostileKind kind, Integer replicas) {
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", kind.container());
    container.put("image", "busybox");
    List<Object> containers = new ArrayList<>();
    containers.add(container);
    Map<String, Object> podSpec = new LinkedHashMap<>();
    podSpec.put("containers", containers);
    Map<String, Object> template = new LinkedHashMap<>();
    template.put("spec", podSpec);
    Map<String, Object> replica = new LinkedHashMap<>();
    if (replicas != null) replica.put("replicas", replicas);
    replica.put("template", template);
    return replica;
  }

  /** A replica type that has a template in every valid job of the kind. */
  String anyType(HostileCase c) {
    return pick(new ArrayList<>(c.specs().keySet()));
  }

  HostileCase next() {
    count++;
    HostileKind kind = pick(KINDS);
    int hostility = random.nextInt(16);
    return switch (hostility) {
      case 0, 1 -> longName(kind);
      case 2 -> replicasAtTheLimit(kind);
      case 3 -> replicasOverTheLimit(kind);
      case 4 -> negativeReplicas(kind);
      case 5 -> unknownReplicaType(kind);
      case 6 -> missingContainers(kind);
      case 7 -> emptyImage(kind);
      case 8 -> duplicateContainerNames(kind);
      case 9 -> badTemplateLabel(kind);
      case 10 -> cpuRequestAboveLimit(kind);
      case 11 -> badRestartPolicy(kind);
      case 12 -> zeroDeadline(kind);
      case 13 -> nameHeldByAnotherJob(kind);
      case 14 -> failurePolicy(kind);
      default -> valid(kind, name(between(6, 20)), "valid baseline");
    };
  }

  /** 45 to 63 characters (mostly 55 and up) with 1 to 5000 replicas: refused exactly when a child name passes 63. */
  HostileCase longName(HostileKind kind) {
    int length = random.nextInt(4) == 0 ? between(45, 54) : between(55, 63);
    int replicas = pick(List.of(between(1, 12), between(90, 110), between(990, 1010), between(4990, 4999)));
    HostileCase c = valid(kind, name(length), "name of " + length + " characters, " + replicas + " Workers");
    c.replica("Worker").put("replicas", replicas);
    int longest = 0;
    for (String type : c.specs().keySet()) {
      Object r = c.replica(type).get("replicas");
      longest = Math.max(longest, kind.longestChildName(c.name, type,
          r == null ? kind.defaultReplicas(type) : ((Number) r).intValue()));
    }
    c.expect = longest > 63 ? Expect.INVALID : Expect.VALID;
    c.words = List.of("metadata.name");
    if (c.totalReplicas() > 12) c.suspend();
    return c;
  }

  /** 5000 of one type (the others removed or at their minimum so the sum stays 5000): valid. */
  HostileCase replicasAtTheLimit(HostileKind kind) {
    HostileCase c = valid(kind, name(between(8, 20)), "5000 replicas in all");
    if (kind == PYTORCH) {
      c.specs().remove("Master");
      c.replica("Worker").put("replicas", 5000);
    } else if (kind == TF) {
      c.specs().remove("Chief");
      c.replica("PS").put("replicas", 1);
      c.replica("Worker").put("replicas", 4999);
    } else {
      c.replica("Worker").put("replicas", 4999);
    }
    c.suspend();
    return c;
  }

  /** 5001 of one type, or 5001 in all: refused, naming the replicas or the replica specs. */
  HostileCase replicasOverTheLimit(HostileKind kind) {
    boolean perType = random.nextBoolean();
    HostileCase c = valid(kind, name(between(8, 20)), perType ? "5001 Workers" : "5001 replicas in all");
    c.replica("Worker").put("replicas", perType ? 5001 : 5000);
    if (!perType && kind == TF) c.replica("PS").put("replicas", 1);
    c.expect = Expect.INVALID;
    c.words = List.of(perType ? "replicas" : "spec." + kind.field());
    c.suspend();
    return c;
  }

  HostileCase negativeReplicas(HostileKind kind) {
    int replicas = -between(1, 3);
    HostileCase c = valid(kind, name(between(8, 20)), replicas + " Workers");
    c.replica("Worker").put("replicas", replicas);
    c.expect = Expect.INVALID;
    c.words = List.of("replicas");
    return c;
  }

  HostileCase unknownReplicaType(HostileKind kind) {
    String type = pick(List.of("Boss", "worker", "Launcher", "Chief", "Master", "Evaluator"));
    if (kind.types().contains(type)) type = "Boss";
    HostileCase c = valid(kind, name(between(8, 20)), "unknown replica type " + type);
    c.specs().remove("Worker");
    c.specs().put(type, replica(kind, 1));
    c.expect = Expect.INVALID;
    c.words = List.of("spec." + kind.field());
    return c;
  }

  HostileCase missingContainers(HostileKind kind) {
    boolean empty = random.nextBoolean();
    HostileCase c = valid(kind, name(between(8, 20)), empty ? "empty containers" : "no containers");
    String type = anyType(c);
    if (empty) c.containers(type).clear();
    else c.podSpec(type).remove("containers");
    c.expect = Expect.INVALID;
    c.words = List.of("containers");
    return c;
  }

  HostileCase emptyImage(HostileKind kind) {
    HostileCase c = valid(kind, name(between(8, 20)), "empty image");
    c.containers(anyType(c)).get(0).put("image", "");
    c.expect = Expect.INVALID;
    c.words = List.of("image");
    return c;
  }

  HostileCase duplicateContainerNames(HostileKind kind) {
    HostileCase c = valid(kind, name(between(8, 20)), "duplicate container names");
    List<Map<String, Object>> containers = c.containers(anyType(c));
    containers.add(new LinkedHashMap<>(containers.get(0)));
    c.expect = Expect.INVALID;
    c.words = List.of("containers[1].name");
    return c;
  }

  HostileCase badTemplateLabel(HostileKind kind) {
    boolean badKey = random.nextBoolean();
    HostileCase c = valid(kind, name(between(8, 20)), badKey ? "invalid label key" : "label value of 64 characters");
    String type = anyType(c);
    @SuppressWarnings("unchecked")
    Map<String, Object> template = (Map<String, Object>) c.replica(type).get("template");
    Map<String, Object> labels = new LinkedHashMap<>();
    if (badKey) labels.put(pick(List.of("bad key", "-starts-with-dash", "a/b/c", "x".repeat(64))), "v");
    else labels.put("team", "v".repeat(64));
    template.put("metadata", Map.of("labels", labels));
    c.expect = Expect.INVALID;
    c.words = List.of("metadata.labels");
    return c;
  }

  HostileCase cpuRequestAboveLimit(HostileKind kind) {
    HostileCase c = valid(kind, name(between(8, 20)), "CPU request above its limit");
    c.containers(anyType(c)).get(0).put("resources",
        Map.of("requests", Map.of("cpu", "2"), "limits", Map.of("cpu", "1")));
    c.expect = Expect.INVALID;
    c.words = List.of("resources.requests");
    return c;
  }

  HostileCase badRestartPolicy(HostileKind kind) {
    String policy = pick(List.of("Sometimes", "always", ""));
    HostileCase c = valid(kind, name(between(8, 20)), "restartPolicy '" + policy + "'");
    c.replica(anyType(c)).put("restartPolicy", policy);
    c.expect = Expect.INVALID;
    c.words = List.of("restartPolicy");
    return c;
  }

  /** Fails by its deadline as soon as it starts: the message names the job. */
  HostileCase zeroDeadline(HostileKind kind) {
    HostileCase c = valid(kind, name(between(8, 20)), "activeDeadlineSeconds: 0");
    c.runPolicy().put("activeDeadlineSeconds", 0);
    c.expect = Expect.INVALID;
    c.words = List.of("activeDeadlineSeconds", c.name);
    return c;
  }

  /**
   * A failure policy: a valid one (the job is Created), or one the CRD refuses naming the field: a rule targeting a
   * replica type the job does not have, a negative maxRestarts, an empty rule list.
   */
  HostileCase failurePolicy(HostileKind kind) {
    int variant = random.nextInt(4);
    HostileCase c = valid(kind, name(between(8, 20)), "");
    String type = variant == 1 ? "Evaluator" : anyType(c);
    Map<String, Object> rule = new LinkedHashMap<>();
    rule.put("action", pick(List.of("FailJob", "RestartJob", "RestartJobAndIgnoreMaxRestarts")));
    rule.put("targetReplicaTypes", List.of(type));
    rule.put("onPodFailureReasons", List.of("DisruptionTarget"));
    Map<String, Object> policy = new LinkedHashMap<>();
    policy.put("maxRestarts", variant == 2 ? -between(1, 3) : between(0, 5));
    policy.put("restartStrategy", pick(List.of("Recreate", "BlockingRecreate")));
    policy.put("rules", variant == 3 ? List.of() : List.of(rule));
    c.runPolicy().put("failurePolicy", policy);
    String[] titles = {"failure policy", "failure policy targeting Evaluator", "failure policy with maxRestarts < 0",
        "failure policy with no rules"};
    HostileCase titled = new HostileCase(c.number, kind, c.name, titles[variant], c.job);
    titled.expect = variant == 0 ? Expect.VALID : Expect.INVALID;
    titled.words = List.of(variant == 2 ? "maxRestarts" : "failurePolicy.rules");
    return titled;
  }

  /**
   * An object of another job (one Stint does not manage: {@code managedBy} names MultiKueue) already holds the name
   * of one of this job's children: the job must fail, naming that object.
   */
  HostileCase nameHeldByAnotherJob(HostileKind kind) {
    HostileCase c = valid(kind, name(between(8, 20)), "");
    String held;
    String holderKind;
    if (kind.mpi()) {
      boolean launcher = random.nextBoolean();
      held = launcher ? c.name + "-launcher" : c.name + "-config";
      holderKind = launcher ? "Job" : "ConfigMap"; // the launcher runs in a batch Job of that name
    } else {
      String type = pick(new ArrayList<>(c.specs().keySet()));
      held = c.name + "-" + type.toLowerCase() + "-0";
      holderKind = random.nextBoolean() ? "Pod" : "Service";
    }
    HostileCase named = new HostileCase(c.number, kind, c.name, holderKind + " " + held + " held by another job",
        c.job);
    named.expect = Expect.INVALID;
    named.words = List.of(held);
    String holder = "holder-" + Integer.toString(c.number, 36) + "-" + c.name.length();
    named.heldName = new HostileCase.HeldName(holder, holderKind, held);
    return named;
  }
}
