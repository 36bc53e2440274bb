package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * A client of the local cluster, a namespace of one test's own, and Stint running as a process with that test's
 * options (a class-wide one is {@link OnLocalCluster}). Closing it checks that the operator is still up, then stops it
 * and deletes the namespace.
 *
 * @param client a client of the local cluster
 * @param ns the test's namespace
 * @param operator the running operator
 */
record OperatorInNamespace(KubernetesClient client, String ns, OperatorProcess operator) implements AutoCloseable {

  @Override
  public void close() throws InterruptedException {
    try {
      assertThat(operator.alive()).as("the operator is still up at the end of the test").isTrue();
    } finally {
      operator.close();
      client.namespaces().withName(ns).delete();
      client.close();
    }
  }
}
