package dev.stint.core.kueue;

import static dev.stint.core.kueue.KueueWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A job's queue labels against its Workload and pods, as Kueue's webhook would have had them. */
class QueueMembershipTest {
  static final Pod OUTSIDE = pod(null);
  static final Pod ADMITTED = pod("w");
  static final KueueWorkloads ADMITTED_IN_Q1 = workload("w").queue("q1")
      .admitted("cq", "worker", Map.of("cpu", "on-demand"), null);
  static final Set<String> CLASSES = Set.of("high", "low");

  static Pod pod(String workload) {
    PodBuilder b = new PodBuilder().withNewMetadata().withName("j-worker-0").endMetadata();
    if (workload != null) {
      b.editMetadata().addToAnnotations(KueueApi.WORKLOAD_ANNOTATION, workload).endMetadata();
    }
    return b.build();
  }

  static Map<String, String> labels(String... kv) {
    Map<String, String> labels = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      labels.put(kv[i], kv[i + 1]);
    }
    return labels;
  }

  /** The facts of a job with these labels; the class it asks for is its priority-class label's. */
  static QueueMembership.Facts facts(Map<String, String> labels, KueueWorkloads workload, boolean suspended,
                                     boolean prebuilt, List<Pod> pods) {
    boolean labelled = labels.containsKey(KueueApi.QUEUE_NAME_LABEL) || prebuilt;
    String label = labels.get(KueueApi.PRIORITY_CLASS_LABEL);
    return new QueueMembership.Facts("PyTorchJob", "j", labelled, labels, workload == null ? null : workload.view(),
        suspended, prebuilt, pods, label == null ? null : WorkloadFor.PriorityRef.workloadPriorityClass(label),
        ref -> CLASSES.contains(ref.name()));
  }

  @Test
  void aPodPriorityClassThatDoesNotExistHoldsANewJobButNotOneWithItsWorkload() {
    WorkloadFor.PriorityRef typo = WorkloadFor.PriorityRef.podPriorityClass("hgih");
    Map<String, String> q1 = labels(KueueApi.QUEUE_NAME_LABEL, "q1");
    QueueMembership.Verdict held = QueueMembership.decide(new QueueMembership.Facts("PyTorchJob", "j", true, q1, null,
        false, false, List.of(), typo, ref -> false));
    assertThat(held.queued()).isTrue();
    assertThat(held.missingPriorityClass()).isEqualTo(typo);
    assertThat(QueueMembership.missingPriorityClassReason(typo)).isEqualTo("PriorityClassNotFound");
    assertThat(QueueMembership.missingPriorityClassMessage("PyTorchJob", "j", typo)).isEqualTo("PyTorchJob j waits: "
        + "its pods' PriorityClass (runPolicy.schedulingPolicy.priorityClass, else a template's priorityClassName) is "
        + "hgih, which does not exist, and Kueue makes no Workload for it until it does (create the class, or "
        + "correct the job).");

    QueueMembership.Verdict admitted = QueueMembership.decide(new QueueMembership.Facts("PyTorchJob", "j", true, q1,
        ADMITTED_IN_Q1.view(), false, false, List.of(ADMITTED), typo, ref -> false));
    assertThat(admitted.queued()).isTrue();
    assertThat(admitted.missingPriorityClass()).isNull();
    assertThat(admitted.notice()).as("the pods' class is not a label to correct").isNull();
  }

  static Stream<Arguments> decide() {
    Map<String, String> q1 = labels(KueueApi.QUEUE_NAME_LABEL, "q1");
    Map<String, String> q2 = labels(KueueApi.QUEUE_NAME_LABEL, "q2");
    return Stream.of(
        // name, labels, workload, suspended, prebuilt, pods, queued, notice reason, missing class
        Arguments.of("a queue label on a job running outside Kueue", q1, null, false, false, List.of(OUTSIDE),
            false, "QueueLabelIgnored", null),
        Arguments.of("the same job suspended: queued", q1, null, true, false, List.of(OUTSIDE), true, null, null),
        Arguments.of("a new job, no pod yet", q1, null, false, false, List.of(), true, null, null),
        Arguments.of("its Workload deleted under its admitted pods", q1, null, false, false, List.of(ADMITTED), true,
            null, null),
        Arguments.of("the label removed while admitted", labels(), ADMITTED_IN_Q1, false, false, List.of(ADMITTED),
            true, "QueueChangeDeferred", null),
        Arguments.of("the label removed, the job suspended: followed until its quota goes", labels(), ADMITTED_IN_Q1,
            true, false, List.of(), true, null, null),
        Arguments.of("the label removed while it waited", labels(), workload("w").queue("q1"), false, false,
            List.of(), false, null, null),
        Arguments.of("another queue while admitted", q2, ADMITTED_IN_Q1, false, false, List.of(ADMITTED), true,
            "QueueChangeDeferred", null),
        Arguments.of("another queue while it waits (the Workload follows)", q2, workload("w").queue("q1"), false,
            false, List.of(), true, null, null),
        Arguments.of("a prebuilt Workload's queue is not the label's", labels(KueueApi.QUEUE_NAME_LABEL, "default",
            KueueApi.PREBUILT_WORKLOAD_LABEL, "w"), ADMITTED_IN_Q1, false, true, List.of(ADMITTED), true, null, null),
        Arguments.of("a priority class that does not exist, no Workload yet", labels(KueueApi.QUEUE_NAME_LABEL, "q1",
            KueueApi.PRIORITY_CLASS_LABEL, "hgih"), null, false, false, List.of(), true, null, "hgih"),
        Arguments.of("a priority class that does not exist, on a Workload", labels(KueueApi.QUEUE_NAME_LABEL, "q1",
            KueueApi.PRIORITY_CLASS_LABEL, "hgih"), ADMITTED_IN_Q1, false, false, List.of(ADMITTED), true,
            "WorkloadPriorityClassNotFound", null),
        Arguments.of("a priority class that exists", labels(KueueApi.QUEUE_NAME_LABEL, "q1",
            KueueApi.PRIORITY_CLASS_LABEL, "high"), null, false, false, List.of(), true, null, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void decide(String name, Map<String, String> labels, KueueWorkloads workload, boolean suspended, boolean prebuilt,
              List<Pod> pods, boolean queued, String notice, String missing) {
    QueueMembership.Verdict v = QueueMembership.decide(facts(labels, workload, suspended, prebuilt, pods));

    assertThat(v.queued()).isEqualTo(queued);
    assertThat(v.notice() == null ? null : v.notice().reason()).isEqualTo(notice);
    assertThat(v.missingPriorityClass() == null ? null : v.missingPriorityClass().name()).isEqualTo(missing);
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @MethodSource("decide")
  void everyNoticeNamesTheJobAndTheLabel(String name, Map<String, String> labels, KueueWorkloads workload,
                                         boolean suspended, boolean prebuilt, List<Pod> pods, boolean queued,
                                         String notice, String missing) {
    QueueMembership.Notice n = QueueMembership.decide(facts(labels, workload, suspended, prebuilt, pods)).notice();
    if (n != null) {
      assertThat(n.message()).contains("kueue.x-k8s.io/").contains(n.reason().startsWith("Workload") ? "hgih" : "j");
    }
  }
}
