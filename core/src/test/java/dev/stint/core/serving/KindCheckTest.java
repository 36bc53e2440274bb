package dev.stint.core.serving;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KindCheckTest {
  private static final KindCheck.Watched JAX = new KindCheck.Watched("kubeflow.org", "jaxjobs");
  private static final KindCheck.Watched PODS = new KindCheck.Watched("", "pods");
  private static final String CRD = "jaxjobs.kubeflow.org";

  @Test
  void aKindNeedsToListAndWatchItselfAndItsChildrenAndToPatchItsStatus() {
    assertThat(KindCheck.rightsOf(JAX, List.of(PODS), List.of()).stream().map(RequiredRight::describe)).containsExactly(
        "list jaxjobs.kubeflow.org cluster-wide", "watch jaxjobs.kubeflow.org cluster-wide",
        "patch jaxjobs.kubeflow.org/status cluster-wide", "list pods cluster-wide", "watch pods cluster-wide");
  }

  @Test
  void watchedNamespacesAreAskedOneByOne() {
    assertThat(KindCheck.rightsOf(JAX, List.of(), List.of("team-a", "team-b")).stream().map(RequiredRight::describe))
        .containsExactly("list jaxjobs.kubeflow.org in namespace team-a", "watch jaxjobs.kubeflow.org in namespace team-a",
            "patch jaxjobs.kubeflow.org/status in namespace team-a", "list jaxjobs.kubeflow.org in namespace team-b",
            "watch jaxjobs.kubeflow.org in namespace team-b", "patch jaxjobs.kubeflow.org/status in namespace team-b");
  }

  static Stream<Arguments> verdicts() {
    List<RequiredRight> rights = KindCheck.rightsOf(JAX, List.of(PODS), List.of());
    return Stream.of(
        Arguments.of("every right, the CRD served", true, answers(rights, List.of()), KindVerdict.SERVED),
        Arguments.of("the CRD missing: named, whatever the rights", false, answers(rights, List.of()),
            KindVerdict.down("CRD jaxjobs.kubeflow.org is not installed (kubectl apply --server-side -f crds/ "
                + "of Stint, or of the plugin that brings the kind)")),
        Arguments.of("the kind's rule missing: every right refused named", true,
            answers(rights, List.of(0, 1, 2)),
            KindVerdict.down("the service account may not list jaxjobs.kubeflow.org cluster-wide, watch "
                + "jaxjobs.kubeflow.org cluster-wide, patch jaxjobs.kubeflow.org/status cluster-wide (a rule missing "
                + "from the ClusterRole)")),
        Arguments.of("a child's right missing", true, answers(rights, List.of(4)),
            KindVerdict.down("the service account may not watch pods cluster-wide (a rule missing from the "
                + "ClusterRole)")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("verdicts")
  void verdict(String name, boolean crdServed, Map<RequiredRight, Boolean> allowed, KindVerdict expected) {
    assertThat(KindCheck.verdict(CRD, crdServed, allowed)).isEqualTo(expected);
  }

  private static Map<RequiredRight, Boolean> answers(List<RequiredRight> rights, List<Integer> refused) {
    Map<RequiredRight, Boolean> answers = new LinkedHashMap<>();
    for (int i = 0; i < rights.size(); i++) {
      answers.put(rights.get(i), !refused.contains(i));
    }
    return answers;
  }
}
