package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/**
 * What the real API server answers to a job manifest, for the CRD validation ITs: a job and its replica types as
 * YAML, and assertions that a manifest is accepted or refused in words that name the field.
 */
final class CrdVerdicts {
  private CrdVerdicts() { }

  /**
   * A kubeflow.org/v1 job of that kind: {@code extraSpec} (spec fields as YAML lines indented by two spaces, or "")
   * before its replica specs map, made of {@link #replica} entries.
   */
  static String job(String kind, String replicaSpecsField, String name, String extraSpec, String... replicas) {
    return """
        apiVersion: kubeflow.org/v1
        kind: %s
        metadata: {name: %s}
        spec:
        %s  %s:
        %s""".formatted(kind, name, extraSpec, replicaSpecsField, String.join("", replicas));
  }

  /** One entry of a {@code <kind>ReplicaSpecs} map, indented for it, with one container. */
  static String replica(String type, int replicas, String container, String image) {
    return """
            %s:
              replicas: %d
              template:
                spec:
                  containers: [{name: %s, image: "%s"}]
        """.formatted(type, replicas, container, image);
  }

  /** Applied for real: refused, and the API server's message contains {@code message}. */
  static void assertRefused(String manifest, String ns, String message) {
    Kubectl.Result result = Kubectl.runWithInput(manifest, "apply", "-n", ns, "-f", "-");
    assertThat(result.exitCode()).as("accepted: %s", manifest).isNotZero();
    assertThat(result.stderr()).contains(message);
  }

  /**
   * Applied with {@code --dry-run=server} (the same validation, nothing stored): accepted when {@code refusal} is
   * empty, else refused with each of its words in the message.
   */
  static void assertVerdict(String manifest, String ns, List<String> refusal) {
    Kubectl.Result result = Kubectl.runWithInput(manifest, "apply", "--dry-run=server", "-n", ns, "-f", "-");
    if (refusal.isEmpty()) {
      assertThat(result.exitCode()).as("refused: %s%n%s", result.stderr(), manifest).isZero();
    } else {
      assertThat(result.exitCode()).as("accepted: %s", manifest).isNotZero();
      for (String words : refusal) {
        assertThat(result.stderr()).contains(words);
      }
    }
  }
}
