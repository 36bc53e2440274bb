package dev.stint.e2e;

import java.nio.file.Files;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every kind's checked-in CRD is asked on a real API server: invalid jobs refused naming the field, the known
 * limits checked, the upstream example accepted unchanged. A subclass gives the kind's cases as static
 * {@code invalidJobs()} (title, manifest, message) and {@code limits()} (title, manifest, refusal words, none when
 * accepted), its namespace and its example to the constructor.
 */
abstract class CrdOnApiServer {
  static final String NAME_TOO_LONG = "metadata.name: too long for its replica names: pod and service names "
      + "(<name>-<type>-<index>) must be no more than 63 characters";

  private final Supplier<String> namespace;
  private final String upstreamExample;

  /**
   * @param namespace the namespace the jobs are applied in (known once the class's cluster fixture ran)
   * @param upstreamExample the upstream example of the kind, a path under examples/
   */
  CrdOnApiServer(Supplier<String> namespace, String upstreamExample) {
    this.namespace = namespace;
    this.upstreamExample = upstreamExample;
  }

  private String ns() {
    return namespace.get();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidJobs")
  void apiServerRejectsInvalidJobNamingTheField(String title, String manifest, String message) {
    CrdVerdicts.assertRefused(manifest, ns(), message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("limits")
  void knownLimitsAreCheckedByTheApiServer(String title, String manifest, List<String> refusal) {
    CrdVerdicts.assertVerdict(manifest, ns(), refusal);
  }

  @Test
  void upstreamExampleIsAcceptedUnchanged() throws Exception {
    String example = Files.readString(LocalCluster.ROOT.resolve("examples").resolve(upstreamExample));
    Kubectl.runWithInput(example, "apply", "--dry-run=server", "-n", ns(), "-f", "-").assertOk();
  }
}
