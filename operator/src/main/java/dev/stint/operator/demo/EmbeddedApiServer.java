package dev.stint.operator.demo;

import dev.stint.testdoubles.MockServerShutdown;
import dev.stint.testdoubles.SimulatedKubelet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An in-process Kubernetes API server for the demo: the fabric8 mock server in CRUD mode, on a free loopback port,
 * over plain HTTP. It stores and watches any object and honours a CRD's status subresource once the CRD is created in
 * it; it has no kubelet ({@link SimulatedKubelet} stands in), no garbage collector, no graceful deletion, no
 * validation and no server-side apply.
 */
public final class EmbeddedApiServer implements AutoCloseable {
  /** Held so that the level sticks: java.util.logging keeps only weak references to its loggers. */
  private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

  private final KubernetesMockServer server;
  private final KubernetesClient client;

  private EmbeddedApiServer(KubernetesMockServer server) {
    this.server = server;
    this.client = server.createClient();
  }

  public static EmbeddedApiServer start() {
    // the mock server logs every request at INFO
    MOCK_SERVER_LOG.setLevel(Level.WARNING);
    KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
        new KubernetesCrudDispatcher(List.of()), false);
    server.init(InetAddress.getLoopbackAddress(), 0);
    return new EmbeddedApiServer(server);
  }

  /** A client of this server; closed with it. */
  public KubernetesClient client() {
    return client;
  }

  public String url() {
    return client.getMasterUrl().toString();
  }

  /** Closes the client and the server; a server slow to close its last watches is left to the JVM's exit. */
  @Override
  public void close() {
    client.close();
    MockServerShutdown.quietly(server);
  }
}
