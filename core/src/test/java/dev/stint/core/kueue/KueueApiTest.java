package dev.stint.core.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KueueApiTest {

  /** Kueue's own vectors (jobframework/workload_names_test.go), and a name cut to Kueue's 253 characters. */
  @ParameterizedTest(name = "{0}/{1} {2}")
  @CsvSource({
      "Job, batch, name, uid, job-name-ef3a1",
      "PyTorchJob, kubeflow.org, pt, uid, pytorchjob-pt-223ef",
  })
  void namesAWorkloadAsKueueDoes(String kind, String group, String job, String uid, String expected) {
    assertThat(KueueApi.workloadName(kind, group, job, uid)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "job name of {0} characters")
  @CsvSource({"240", "253"})
  void cutsLongNamesToKueuesLimit(int length) {
    String name = KueueApi.workloadName("TFJob", "kubeflow.org", "j".repeat(length), "uid");
    assertThat(name).hasSizeLessThanOrEqualTo(253).startsWith("tfjob-jjj").matches(".*-[0-9a-f]{5}");
  }
}
