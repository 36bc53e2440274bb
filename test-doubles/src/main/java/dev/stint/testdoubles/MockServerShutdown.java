package dev.stint.testdoubles;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shuts the fabric8 mock server down after a test, tolerating its own teardown fault: when a client closes a watch
 * while the server still has an event for it queued, the mock's watch listener waits up to a minute for its executor
 * on the server's only event loop, and the server's close gives up after 10 seconds ("Unable to close
 * MockWebServer"). On a loaded machine that fails a test whose assertions all passed. Called from a test's
 * {@code @AfterEach}, after the operator is stopped (the extension's own shutdown that follows is then a no-op), and
 * by the demo's embedded API server when it closes.
 */
public final class MockServerShutdown {
  private static final Logger LOG = LoggerFactory.getLogger(MockServerShutdown.class);

  private MockServerShutdown() { }

  /** Destroys the server (nothing when it is null), logging instead of throwing when it does not close in time. */
  public static void quietly(KubernetesMockServer server) {
    if (server == null) {
      return;
    }
    try {
      server.destroy();
    } catch (IllegalStateException e) {
      LOG.warn("The mock server did not close in time ({}); the test itself is done", e.getMessage());
    }
  }
}
