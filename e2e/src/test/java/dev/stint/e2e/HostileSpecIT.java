package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hostile and edge-case specs, generated from a seed, against the real API server with Stint running as a process.
 * The property, for every generated PyTorchJob, TFJob and MPIJob (DESIGN.md §6, "never silent, never down"):
 *
 * <ul>
 *   <li>the API server refuses it with a message naming the field, or</li>
 *   <li>it ends {@code Failed=True} with a message naming the field or the object (the engine ends a job
 *       {@code <Kind>FailedCreate} when the API server refuses a child for good, {@code <Kind>FailedValidation} when
 *       its own validation refuses it), or</li>
 *   <li>it is valid and gets {@code Created=True};</li>
 * </ul>
 * a job is never left without any condition, and the operator stays up: it is alive after every batch, and a valid
 * control job created at the end still reaches {@code Running=True}.
 *
 * <p>Each spec is told whether it is valid, invalid or may go either way, so a valid job that fails and an invalid one
 * left running both break the property. Every job gets at least {@link #OUTCOME_TIMEOUT} after its creation: the
 * waits are generous, and nothing depends on how fast anything happens.
 *
 * <p>The seed is printed (and named in a failure); {@code -Dstint.hostile.seed=N} replays a run,
 * {@code -Dstint.hostile.tries=N} sets the number of specs (default {@value #DEFAULT_TRIES}, under two minutes). The
 * generation is a plain seeded {@link SplittableRandom}: same seed, same specs, same order.
 */
class HostileSpecIT {
  static final int DEFAULT_TRIES = 40;
  /** Specs created at once, then waited for together; each batch's jobs are deleted before the next one. */
  static final int BATCH = 40;
  static final Duration OUTCOME_TIMEOUT = Duration.ofSeconds(60);
  static final KubernetesSerialization JSON = new KubernetesSerialization();
  static final String BATCH_LABEL = "stint.dev/hostile-batch";

  static OperatorInNamespace cluster;
  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void setUp() {
    cluster = OperatorInNamespace.start("hostile");
    client = cluster.client();
    ns = cluster.ns();
  }

  @AfterAll
  static void tearDown() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** What a spec should come to. */
  enum Expect {
    /** Refused by the API server, or ended {@code Failed=True}, either naming one of the case's words. */
    INVALID,
    /** Accepted, {@code Created=True}, never {@code Failed}. */
    VALID
  }

  /** A kind under test: its group version, replica-spec field, container rule and replica types. */
  record Kind(String apiVersion, String kind, String field, String container, List<String> types) {
    boolean mpi() {
      return kind.equals("MPIJob");
    }

    /** The replicas a type gets when its spec sets none, as the kind defaults them. */
    int defaultReplicas(String type) {
      return mpi() && type.equals("Worker") ? 0 : 1;
    }

    /** The names of the children of a type with this many replicas, longest last (the pod and service names). */
    int longestChildName(String job, String type, int replicas) {
      if (mpi()) {
        if (type.equals("Launcher")) return job.length() + "-launcher".length();
        return replicas < 1 ? 0 : job.length() + "-worker-".length() + Integer.toString(replicas - 1).length();
      }
      return job.length() + 2 + type.length() + Integer.toString(Math.max(replicas - 1, 0)).length();
    }
  }

  static final Kind PYTORCH = new Kind("kubeflow.org/v1", "PyTorchJob", "pytorchReplicaSpecs", "pytorch",
      List.of("Master", "Worker"));
  static final Kind TF = new Kind("kubeflow.org/v1", "TFJob", "tfReplicaSpecs", "tensorflow",
      List.of("Chief", "PS", "Worker", "Evaluator"));
  static final Kind MPI = new Kind("kubeflow.org/v2beta1", "MPIJob", "mpiReplicaSpecs", "mpi",
      List.of("Launcher", "Worker"));
  static final List<Kind> KINDS = List.of(PYTORCH, TF, MPI);

  /** One generated spec: the job, what it should come to, and the words a refusal or failure must contain. */
  static final class Case {
    final int number;
    final Kind kind;
    final String name;
    final String title;
    final Map<String, Object> job;
    Expect expect;
    List<String> words = List.of();
    /** Run before the job is created (for example: another job's object holding a child's name). */
    Runnable setup = () -> { };
    String outcome = "";
    String violation;

    Case(int number, Kind kind, String name, String title, Map<String, Object> job) {
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

  /** The generator: a seeded random source and the hostilities it draws from. */
  static final class Generator {
    final SplittableRandom random;
    int count;

    Generator(long seed) {
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
    Case valid(Kind kind, String name, String title) {
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
      Case c = new Case(count, kind, name, title, job);
      c.expect = Expect.VALID;
      return c;
    }

    static Map<String, Object> replica(Kind kind, Integer replicas) {
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
    String anyType(Case c) {
      return pick(new ArrayList<>(c.specs().keySet()));
    }

    Case next() {
      count++;
      Kind kind = pick(KINDS);
      int hostility = random.nextInt(15);
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
        default -> valid(kind, name(between(6, 20)), "valid baseline");
      };
    }

    /** 45 to 63 characters (mostly 55 and up) with 1 to 5000 replicas: refused exactly when a child name passes 63. */
    Case longName(Kind kind) {
      int length = random.nextInt(4) == 0 ? between(45, 54) : between(55, 63);
      int replicas = pick(List.of(between(1, 12), between(90, 110), between(990, 1010), between(4990, 4999)));
      Case c = valid(kind, name(length), "name of " + length + " characters, " + replicas + " Workers");
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
    Case replicasAtTheLimit(Kind kind) {
      Case c = valid(kind, name(between(8, 20)), "5000 replicas in all");
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
    Case replicasOverTheLimit(Kind kind) {
      boolean perType = random.nextBoolean();
      Case c = valid(kind, name(between(8, 20)), perType ? "5001 Workers" : "5001 replicas in all");
      c.replica("Worker").put("replicas", perType ? 5001 : 5000);
      if (!perType && kind == TF) c.replica("PS").put("replicas", 1);
      c.expect = Expect.INVALID;
      c.words = List.of(perType ? "replicas" : "spec." + kind.field());
      c.suspend();
      return c;
    }

    Case negativeReplicas(Kind kind) {
      int replicas = -between(1, 3);
      Case c = valid(kind, name(between(8, 20)), replicas + " Workers");
      c.replica("Worker").put("replicas", replicas);
      c.expect = Expect.INVALID;
      c.words = List.of("replicas");
      return c;
    }

    Case unknownReplicaType(Kind kind) {
      String type = pick(List.of("Boss", "worker", "Launcher", "Chief", "Master", "Evaluator"));
      if (kind.types().contains(type)) type = "Boss";
      Case c = valid(kind, name(between(8, 20)), "unknown replica type " + type);
      c.specs().remove("Worker");
      c.specs().put(type, replica(kind, 1));
      c.expect = Expect.INVALID;
      c.words = List.of("spec." + kind.field());
      return c;
    }

    Case missingContainers(Kind kind) {
      boolean empty = random.nextBoolean();
      Case c = valid(kind, name(between(8, 20)), empty ? "empty containers" : "no containers");
      String type = anyType(c);
      if (empty) c.containers(type).clear();
      else c.podSpec(type).remove("containers");
      c.expect = Expect.INVALID;
      c.words = List.of("containers");
      return c;
    }

    Case emptyImage(Kind kind) {
      Case c = valid(kind, name(between(8, 20)), "empty image");
      c.containers(anyType(c)).get(0).put("image", "");
      c.expect = Expect.INVALID;
      c.words = List.of("image");
      return c;
    }

    Case duplicateContainerNames(Kind kind) {
      Case c = valid(kind, name(between(8, 20)), "duplicate container names");
      List<Map<String, Object>> containers = c.containers(anyType(c));
      containers.add(new LinkedHashMap<>(containers.get(0)));
      c.expect = Expect.INVALID;
      c.words = List.of("containers[1].name");
      return c;
    }

    Case badTemplateLabel(Kind kind) {
      boolean badKey = random.nextBoolean();
      Case c = valid(kind, name(between(8, 20)), badKey ? "invalid label key" : "label value of 64 characters");
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

    Case cpuRequestAboveLimit(Kind kind) {
      Case c = valid(kind, name(between(8, 20)), "CPU request above its limit");
      c.containers(anyType(c)).get(0).put("resources",
          Map.of("requests", Map.of("cpu", "2"), "limits", Map.of("cpu", "1")));
      c.expect = Expect.INVALID;
      c.words = List.of("resources.requests");
      return c;
    }

    Case badRestartPolicy(Kind kind) {
      String policy = pick(List.of("Sometimes", "always", ""));
      Case c = valid(kind, name(between(8, 20)), "restartPolicy '" + policy + "'");
      c.replica(anyType(c)).put("restartPolicy", policy);
      c.expect = Expect.INVALID;
      c.words = List.of("restartPolicy");
      return c;
    }

    /** Fails by its deadline as soon as it starts: the message names the job. */
    Case zeroDeadline(Kind kind) {
      Case c = valid(kind, name(between(8, 20)), "activeDeadlineSeconds: 0");
      c.runPolicy().put("activeDeadlineSeconds", 0);
      c.expect = Expect.INVALID;
      c.words = List.of("activeDeadlineSeconds", c.name);
      return c;
    }

    /**
     * An object of another job (one Stint does not manage: {@code managedBy} names MultiKueue) already holds the name
     * of one of this job's children: the job must fail, naming that object.
     */
    Case nameHeldByAnotherJob(Kind kind) {
      Case c = valid(kind, name(between(8, 20)), "");
      String held;
      String holderKind;
      if (kind.mpi()) {
        boolean pod = random.nextBoolean();
        held = pod ? c.name + "-launcher" : c.name + "-config";
        holderKind = pod ? "Pod" : "ConfigMap";
      } else {
        String type = pick(new ArrayList<>(c.specs().keySet()));
        held = c.name + "-" + type.toLowerCase() + "-0";
        holderKind = random.nextBoolean() ? "Pod" : "Service";
      }
      Case named = new Case(c.number, kind, c.name, holderKind + " " + held + " held by another job", c.job);
      named.expect = Expect.INVALID;
      named.words = List.of(held);
      String holder = "holder-" + Integer.toString(c.number, 36) + "-" + c.name.length();
      named.setup = () -> holdName(holder, holderKind, held);
      return named;
    }
  }

  /** Creates a PyTorchJob Stint must leave alone, and an object it controls named {@code held}. */
  static void holdName(String holder, String objectKind, String held) {
    String job = JSON.asJson(Map.of("apiVersion", "kubeflow.org/v1", "kind", "PyTorchJob",
        "metadata", Map.of("name", holder),
        "spec", Map.of("runPolicy", Map.of("managedBy", "kueue.x-k8s.io/multikueue"),
            "pytorchReplicaSpecs", Map.of("Worker", Generator.replica(PYTORCH, 1)))));
    Kubectl.runWithInput(job, "create", "-n", ns, "-f", "-").assertOk();
    String uid = client.genericKubernetesResources("kubeflow.org/v1", "PyTorchJob").inNamespace(ns)
        .withName(holder).get().getMetadata().getUid();
    Map<String, Object> owner = Map.of("apiVersion", "kubeflow.org/v1", "kind", "PyTorchJob", "name", holder,
        "uid", uid, "controller", true);
    Map<String, Object> metadata = Map.of("name", held, "ownerReferences", List.of(owner));
    Map<String, Object> object = switch (objectKind) {
      case "Pod" -> Map.of("apiVersion", "v1", "kind", "Pod", "metadata", metadata,
          "spec", Map.of("containers", List.of(Map.of("name", "c", "image", "busybox"))));
      case "Service" -> Map.of("apiVersion", "v1", "kind", "Service", "metadata", metadata,
          "spec", Map.of("clusterIP", "None", "selector", Map.of("app", holder)));
      default -> Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", metadata, "data", Map.of("k", "v"));
    };
    Kubectl.runWithInput(JSON.asJson(object), "create", "-n", ns, "-f", "-").assertOk();
  }

  /** The counts a run ends with. */
  static final class Tally {
    int tried;
    int refused;
    int failed;
    int valid;
    final List<Case> violations = new ArrayList<>();

    @Override
    public String toString() {
      return "specs tried " + tried + ", refused by the API server " + refused + ", Failed by the operator " + failed
          + ", valid (Created) " + valid + ", property violated " + violations.size();
    }
  }

  @Test
  void everyHostileSpecIsRefusedOrFailedNamingTheFieldOrIsValid() throws IOException {
    long seed = Long.getLong("stint.hostile.seed", new SplittableRandom().nextLong());
    int tries = Integer.getInteger("stint.hostile.tries", DEFAULT_TRIES);
    System.out.println("HostileSpecIT: seed " + seed + ", tries " + tries
        + " (replay with -Dstint.hostile.seed=" + seed + " -Dstint.hostile.tries=" + tries + ")");
    Generator generator = new Generator(seed);
    Tally tally = new Tally();
    List<String> log = new ArrayList<>();

    for (int batch = 0; tally.tried < tries; batch++) {
      List<Case> cases = new ArrayList<>();
      while (cases.size() < BATCH && tally.tried < tries) {
        Case c = generator.next();
        tally.tried++;
        cases.add(c);
        create(c, batch, tally);
      }
      awaitOutcomes(cases, tally);
      for (Case c : cases) {
        String line = c.describe() + " -> " + c.outcome + (c.violation == null ? "" : "  VIOLATION: " + c.violation);
        System.out.println(line);
        log.add(line);
      }
      assertThat(cluster.operator().alive()).as("the operator died during batch %d (seed %d); its log:%n%s", batch, seed,
          tail(cluster.operator().log())).isTrue();
      deleteBatch(batch);
    }

    String control = controlJobReachesRunning();
    String summary = "HostileSpecIT seed " + seed + ": " + tally + "; " + control;
    System.out.println(summary);
    log.add(summary);
    Path report = LocalCluster.ROOT.resolve("e2e/target/hostile-spec-report.txt");
    Files.createDirectories(report.getParent());
    Files.write(report, log, StandardCharsets.UTF_8);

    assertThat(cluster.operator().alive()).as("the operator is alive at the end (seed %d)", seed).isTrue();
    assertThat(tally.violations).as("%s%nviolations (replay with -Dstint.hostile.seed=%d -Dstint.hostile.tries=%d; "
            + "report in %s):%n%s", tally, seed, tries, report,
        String.join("\n", tally.violations.stream().map(c -> c.describe() + ": " + c.violation + "\n    "
            + JSON.asJson(c.job)).toList()))
        .isEmpty();
  }

  /** Creates a case's job with kubectl; a refusal is judged at once. */
  static void create(Case c, int batch, Tally tally) {
    c.setup.run();
    @SuppressWarnings("unchecked")
    Map<String, Object> metadata = (Map<String, Object>) c.job.get("metadata");
    metadata.put("labels", Map.of(BATCH_LABEL, Integer.toString(batch)));
    Kubectl.Result result = Kubectl.runWithInput(JSON.asJson(c.job), "create", "-n", ns, "-f", "-");
    if (result.exitCode() == 0) return;
    tally.refused++;
    String words = result.stderr().strip();
    c.outcome = "refused: " + words;
    if (c.expect == Expect.VALID) {
      violate(c, tally, "a valid spec was refused by the API server: " + words);
    } else if (c.words.stream().noneMatch(words::contains)) {
      violate(c, tally, "refused by the API server without naming any of " + c.words + ": " + words);
    }
  }

  /** Waits, for every accepted case together, until it shows its outcome or has had its time; then judges it. */
  static void awaitOutcomes(List<Case> cases, Tally tally) {
    List<Case> accepted = cases.stream().filter(c -> c.outcome.isEmpty()).toList();
    try {
      // every job was created before this wait began, so each has at least OUTCOME_TIMEOUT
      await().atMost(OUTCOME_TIMEOUT).pollInterval(Duration.ofMillis(500))
          .until(() -> accepted.stream().allMatch(HostileSpecIT::settled));
    } catch (ConditionTimeoutException e) {
      // judged below, case by case
    }
    for (Case c : accepted) {
      Map<String, Map<String, String>> conditions = conditions(c);
      Optional<Map<String, String>> failed = isTrue(conditions, "Failed");
      Optional<Map<String, String>> created = isTrue(conditions, "Created");
      c.outcome = "conditions " + conditions.keySet() + failed.map(f -> ", Failed " + f.get("reason") + ": "
          + f.get("message")).orElse("");
      if (failed.isPresent()) {
        tally.failed++;
        String message = failed.get().get("message") == null ? "" : failed.get().get("message");
        if (c.expect == Expect.VALID) {
          violate(c, tally, "a valid job ended Failed: " + failed.get().get("reason") + ": " + message);
        } else if (c.words.stream().noneMatch(message::contains)) {
          violate(c, tally, "Failed without naming any of " + c.words + ": " + failed.get().get("reason") + ": "
              + message);
        }
      } else if (conditions.isEmpty()) {
        violate(c, tally, "no condition at all after " + OUTCOME_TIMEOUT.toSeconds() + " s");
      } else if (c.expect == Expect.INVALID) {
        violate(c, tally, "accepted by the API server and not Failed after " + OUTCOME_TIMEOUT.toSeconds()
            + " s; conditions " + conditions);
      } else if (created.isPresent()) {
        tally.valid++;
      } else {
        violate(c, tally, "valid, but no Created=True after " + OUTCOME_TIMEOUT.toSeconds() + " s; conditions "
            + conditions);
      }
    }
  }

  /** Whether a case shows what it waits for: Failed=True for an invalid one, Created=True for a valid one. */
  static boolean settled(Case c) {
    Map<String, Map<String, String>> conditions = conditions(c);
    if (isTrue(conditions, "Failed").isPresent()) return true;
    return c.expect == Expect.VALID && isTrue(conditions, "Created").isPresent();
  }

  static void violate(Case c, Tally tally, String why) {
    c.violation = why;
    tally.violations.add(c);
  }

  /** The job's conditions by type (type, status, reason, message), in order; empty when it has none or is gone. */
  @SuppressWarnings("unchecked")
  static Map<String, Map<String, String>> conditions(Case c) {
    GenericKubernetesResource job = client.genericKubernetesResources(c.kind.apiVersion(), c.kind.kind())
        .inNamespace(ns).withName(c.name).get();
    Map<String, Map<String, String>> byType = new LinkedHashMap<>();
    if (job == null || !(job.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) return byType;
    if (status.get("conditions") instanceof List<?> list) {
      for (Object item : list) {
        Map<String, Object> condition = (Map<String, Object>) item;
        Map<String, String> fields = new LinkedHashMap<>();
        condition.forEach((k, v) -> fields.put(k, v == null ? null : v.toString()));
        byType.put(fields.get("type"), fields);
      }
    }
    return byType;
  }

  static Optional<Map<String, String>> isTrue(Map<String, Map<String, String>> conditions, String type) {
    return Optional.ofNullable(conditions.get(type)).filter(c -> "True".equals(c.get("status")));
  }

  static void deleteBatch(int batch) {
    for (Kind kind : KINDS) {
      client.genericKubernetesResources(kind.apiVersion(), kind.kind()).inNamespace(ns)
          .withLabel(BATCH_LABEL, Integer.toString(batch)).delete();
    }
  }

  /** A valid job created after all the hostile ones still runs: the operator is not only alive but working. */
  static String controlJobReachesRunning() {
    Generator generator = new Generator(0);
    Case control = generator.valid(PYTORCH, "control", "control");
    Kubectl.runWithInput(JSON.asJson(control.job), "create", "-n", ns, "-f", "-").assertOk();
    await().atMost(OUTCOME_TIMEOUT).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(isTrue(conditions(control), "Running")).as("control job Running=True; conditions %s",
            conditions(control)).isPresent());
    return "control job Running=True";
  }

  static String tail(String text) {
    String[] lines = text.split("\n");
    return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 40), lines.length));
  }
}
