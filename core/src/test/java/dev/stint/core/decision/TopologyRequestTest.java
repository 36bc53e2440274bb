package dev.stint.core.decision;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Kueue's podset annotations read as Kueue v0.17.0's {@code NewPodSetTopologyRequest(...).Build()} reads them. */
class TopologyRequestTest {
  static final String INDEX = "training.kubeflow.org/replica-index";

  static Map<String, Object> field(Object... entries) {
    Map<String, Object> field = new LinkedHashMap<>();
    for (int i = 0; i < entries.length; i += 2) {
      field.put((String) entries[i], entries[i + 1]);
    }
    return field;
  }

  static Stream<Arguments> workloadField() {
    return Stream.of(
        Arguments.of("no annotation: the pod index label only, as Kueue's Kubeflow integrations", Map.of(),
            field("podIndexLabel", INDEX)),
        Arguments.of("required", Map.of(TopologyRequest.REQUIRED, "rack"),
            field("required", "rack", "podIndexLabel", INDEX)),
        Arguments.of("required wins over preferred", Map.of(TopologyRequest.REQUIRED, "rack",
            TopologyRequest.PREFERRED, "block"), field("required", "rack", "podIndexLabel", INDEX)),
        Arguments.of("preferred, in a group", Map.of(TopologyRequest.PREFERRED, "block",
            TopologyRequest.GROUP_NAME, "mpi"), field("preferred", "block", "podIndexLabel", INDEX,
            "podSetGroupName", "mpi")),
        Arguments.of("unconstrained, Go's boolean", Map.of(TopologyRequest.UNCONSTRAINED, "T"),
            field("unconstrained", true, "podIndexLabel", INDEX)),
        Arguments.of("a group without required or preferred counts for nothing", Map.of(
            TopologyRequest.UNCONSTRAINED, "true", TopologyRequest.GROUP_NAME, "g"),
            field("unconstrained", true, "podIndexLabel", INDEX)),
        Arguments.of("slices of hosts in one rack", Map.of(TopologyRequest.REQUIRED, "rack",
            TopologyRequest.SLICE_REQUIRED, "kubernetes.io/hostname", TopologyRequest.SLICE_SIZE, "2"),
            field("required", "rack", "podIndexLabel", INDEX, "podSetSliceRequiredTopology",
                "kubernetes.io/hostname", "podSetSliceSize", 2)),
        Arguments.of("a slice without its size is no slice", Map.of(TopologyRequest.SLICE_REQUIRED, "rack"),
            field("podIndexLabel", INDEX)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void workloadField(String name, Map<String, String> annotations, Map<String, Object> expected) {
    assertThat(TopologyRequest.of(annotations).toWorkloadField()).containsExactlyEntriesOf(expected);
  }

  static Stream<Arguments> errors() {
    String f = "spec.xReplicaSpecs.Worker.template.metadata.annotations";
    return Stream.of(
        Arguments.of(Map.of(TopologyRequest.REQUIRED, "rack"), List.of()),
        Arguments.of(Map.of("other", "x"), List.of()),
        Arguments.of(Map.of(TopologyRequest.REQUIRED, "rack", TopologyRequest.UNCONSTRAINED, "true"),
            List.of(f + ": must not hold more than one of kueue.x-k8s.io/podset-required-topology, "
                + "kueue.x-k8s.io/podset-preferred-topology, kueue.x-k8s.io/podset-unconstrained-topology")),
        Arguments.of(Map.of(TopologyRequest.PREFERRED, "no spaces"), List.of(
            f + "[kueue.x-k8s.io/podset-preferred-topology]: must be a node label key, not \"no spaces\"")),
        Arguments.of(Map.of(TopologyRequest.UNCONSTRAINED, "yes"), List.of(
            f + "[kueue.x-k8s.io/podset-unconstrained-topology]: must be a boolean value, not \"yes\"")),
        Arguments.of(Map.of(TopologyRequest.SLICE_REQUIRED, "rack", TopologyRequest.SLICE_SIZE, "0"), List.of(
            f + "[kueue.x-k8s.io/podset-slice-size]: must be a number of 1 or more, not \"0\"")),
        Arguments.of(Map.of(TopologyRequest.SLICE_SIZE, "2"), List.of(
            f + "[kueue.x-k8s.io/podset-slice-size]: may not be set without kueue.x-k8s.io/podset-slice-required-topology")),
        Arguments.of(Map.of(TopologyRequest.SLICE_REQUIRED, "rack"), List.of(
            f + "[kueue.x-k8s.io/podset-slice-size]: must be set with kueue.x-k8s.io/podset-slice-required-topology")),
        Arguments.of(Map.of(TopologyRequest.UNCONSTRAINED, "true", TopologyRequest.GROUP_NAME, "7"), List.of(
            f + "[kueue.x-k8s.io/podset-group-name]: must not be a number",
            f + "[kueue.x-k8s.io/podset-group-name]: may not be set without kueue.x-k8s.io/podset-required-topology"
                + " or kueue.x-k8s.io/podset-preferred-topology")),
        Arguments.of(Map.of(TopologyRequest.SLICE_CONSTRAINTS, "[]"), List.of(
            f + "[kueue.x-k8s.io/podset-slice-required-topology-constraints]: Kueue's multi-layer slices (alpha, "
                + "off by default) are not read by Stint; use kueue.x-k8s.io/podset-slice-required-topology with "
                + "kueue.x-k8s.io/podset-slice-size")));
  }

  @ParameterizedTest
  @MethodSource
  void errors(Map<String, String> annotations, List<String> expected) {
    assertThat(TopologyRequest.errors("spec.xReplicaSpecs.Worker.template.metadata.annotations", annotations))
        .containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> groups() {
    TopologyRequest rack = TopologyRequest.of(Map.of(TopologyRequest.REQUIRED, "rack",
        TopologyRequest.GROUP_NAME, "mpi"));
    TopologyRequest block = TopologyRequest.of(Map.of(TopologyRequest.REQUIRED, "block",
        TopologyRequest.GROUP_NAME, "mpi"));
    TopologyRequest alone = TopologyRequest.of(Map.of());
    return Stream.of(
        Arguments.of("a launcher and its workers in one rack", Map.of("Launcher", rack, "Worker", rack),
            Map.of("Launcher", 1, "Worker", 4), List.of()),
        Arguments.of("one replica type alone", Map.of("Launcher", rack, "Worker", alone),
            Map.of("Launcher", 1, "Worker", 4),
            List.of("Launcher[kueue.x-k8s.io/podset-group-name]: group mpi must hold exactly 2 replica types, not 1")),
        Arguments.of("no side of one pod", Map.of("Launcher", rack, "Worker", rack),
            Map.of("Launcher", 2, "Worker", 4), List.of("Launcher[kueue.x-k8s.io/podset-group-name] and "
                + "Worker[kueue.x-k8s.io/podset-group-name]: in group mpi one replica type must have exactly 1 replica")),
        Arguments.of("two levels", Map.of("Launcher", rack, "Worker", block),
            Map.of("Launcher", 1, "Worker", 4), List.of("Launcher[kueue.x-k8s.io/podset-group-name] and "
                + "Worker[kueue.x-k8s.io/podset-group-name]: group mpi must ask for the same required or preferred "
                + "topology")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void groups(String name, Map<String, TopologyRequest> requests, Map<String, Integer> counts,
              List<String> expected) {
    Map<String, TopologyRequest> ordered = new LinkedHashMap<>();
    List.of("Launcher", "Worker").forEach(t -> ordered.put(t, requests.get(t)));
    assertThat(TopologyRequest.groupErrors(ordered, counts, t -> t)).containsExactlyElementsOf(expected);
  }

  @Test
  void onlyRequiredPreferredOrUnconstrainedIsExplicit() {
    assertThat(TopologyRequest.of(Map.of(TopologyRequest.REQUIRED, "rack")).explicit()).isTrue();
    assertThat(TopologyRequest.of(Map.of(TopologyRequest.UNCONSTRAINED, "false")).explicit()).isTrue();
    assertThat(TopologyRequest.of(Map.of(TopologyRequest.SLICE_REQUIRED, "rack", TopologyRequest.SLICE_SIZE, "2"))
        .explicit()).isFalse();
    assertThat(TopologyRequest.of(Map.of()).none()).isTrue();
  }
}
