package dev.stint.kubeclient;

import java.net.URI;

/**
 * Whether a request may go to the API server now. {@link JdkClientFactory}'s clients ask it twice for every request
 * with a body: when fabric8 hands the request over, and again when the JDK client asks for the body's first bytes,
 * after the headers have gone, which is the last moment before the request can take effect. A request refused at the
 * second ask never completes its body, so the API server cannot carry it out.
 */
@FunctionalInterface
public interface SendGate {
  /** The gate of a client that sends everything. */
  SendGate OPEN = (method, uri) -> null;

  /**
   * The failure the caller gets instead of {@code method uri} when it must not be sent now, or null when it may. An
   * unchecked exception: fabric8 retries a request that failed with an {@code IOException}, and a refusal is final
   * for that request (fabric8 passes a {@code KubernetesClientException} on as it is).
   *
   * @param method the HTTP method, upper case
   * @param uri the request's URI
   */
  RuntimeException refusal(String method, URI uri);
}
