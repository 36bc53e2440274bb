package dev.stint.operator;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/** Where this process's Lease is and what it is called in it, from the options and where the process runs. */
final class LeaseLocation {
  /** The namespace of the pod's service account, mounted in every pod that has one. */
  static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

  private LeaseLocation() {
  }

  /**
   * {@code --leader-election-namespace}, else {@code POD_NAMESPACE} (the downward API), else the service account's
   * namespace, else the kubeconfig's current namespace, else {@code default}.
   */
  static String namespace(String option, Map<String, String> env, Path serviceAccountNamespace,
                          String kubeconfigNamespace) {
    if (option != null) {
      return option;
    }
    String fromEnv = env.get("POD_NAMESPACE");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv.trim();
    }
    try {
      if (Files.isReadable(serviceAccountNamespace)) {
        String fromFile = Files.readString(serviceAccountNamespace).trim();
        if (!fromFile.isEmpty()) {
          return fromFile;
        }
      }
    } catch (IOException e) {
      // not in a pod, or no service account: the next source
    }
    return kubeconfigNamespace == null || kubeconfigNamespace.isBlank() ? "default" : kubeconfigNamespace;
  }

  /**
   * {@code POD_NAME} (the downward API: unique among the replicas), else the host name with a random suffix, so
   * that two processes on one machine are two candidates.
   */
  static String identity(Map<String, String> env) {
    String pod = env.get("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod.trim();
    }
    return hostName() + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "stint";
    }
  }
}
