package dev.stint.core.engine;

import dev.stint.core.StintOperator;
import dev.stint.core.StintOperatorBuilder;
import dev.stint.core.registry.FrameworkRegistry;
import dev.stint.testdoubles.MockServerShutdown;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The fabric8 CRUD mock server (a fresh one per test) and the operator a test starts on it, stopped after each test
 * before the server is shut down.
 */
@EnableKubernetesMockClient(crud = true)
abstract class OperatorOnMockServer {
  KubernetesClient client;
  KubernetesMockServer server;
  StintOperator operator;

  /** Waits sized for a loaded 2-core machine: a wait only ends early when its condition holds. */
  @BeforeAll
  static void patientOnALoadedMachine() {
    Awaitility.setDefaultTimeout(Duration.ofSeconds(60));
  }

  /**
   * An operator as the mock server can run it: no server-side apply (the mock lacks it), the client left open for the
   * test, and informer errors tolerated (a test's expectations may refuse a list).
   */
  static StintOperatorBuilder onMockServer(KubernetesClient client, FrameworkRegistry registry) {
    return StintOperator.builder(client, registry).serverSideApply(false).closeClientOnStop(false)
        .stopOnInformerError(false).kindChecks(false);
  }

  void startOperator(FrameworkRegistry registry) {
    operator = onMockServer(client, registry).build();
    operator.start();
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.stop();
    }
    afterOperatorStopped();
    MockServerShutdown.quietly(server);
  }

  /** What a test releases once its operator no longer runs, before the server goes. */
  void afterOperatorStopped() { }
}
