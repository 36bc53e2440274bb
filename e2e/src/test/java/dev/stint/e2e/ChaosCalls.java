package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/** The chaos suite's plumbing: reads and writes that outlast an API server restart, and owner-reference lookups. */
final class ChaosCalls {
  private ChaosCalls() { }

  static boolean transientError(KubernetesClientException e) {
    return e.getCode() == 0 || e.getCode() == 429 || e.getCode() >= 500;
  }

  static <T> T retry(String what, Callable<T> call) {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        return call.call();
      } catch (KubernetesClientException e) {
        if (!transientError(e) && !"not found yet".equals(e.getMessage())) {
          throw e;
        }
        last = e;
      } catch (RuntimeException e) {
        last = e;
      } catch (Exception e) {
        last = new IllegalStateException(e);
      }
      sleep(500);
    }
    throw new IllegalStateException(what + " kept failing for 120 s", last);
  }

  /** kubectl, tried again while the API server is away (every call the test makes is idempotent). */
  static void kubectl(String stdin, String... args) {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    Kubectl.Result result;
    do {
      result = Kubectl.runWithInput(stdin, args);
      if (result.exitCode() == 0) {
        return;
      }
      sleep(500);
    } while (System.nanoTime() < deadline);
    throw new IllegalStateException("kubectl " + String.join(" ", args) + " kept failing: " + result.stderr());
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static long millisSince(long t0) {
    return (System.nanoTime() - t0) / 1_000_000;
  }

  static String annotation(HasMetadata o, String key) {
    return o.getMetadata().getAnnotations() == null ? null : o.getMetadata().getAnnotations().get(key);
  }

  static boolean ownedByAJob(HasMetadata o) {
    return o.getMetadata().getOwnerReferences() != null && o.getMetadata().getOwnerReferences().stream()
        .anyMatch(r -> r.getApiVersion() != null && r.getApiVersion().startsWith("kubeflow.org/"));
  }

  static List<OwnerReference> controllers(HasMetadata o) {
    return o.getMetadata().getOwnerReferences() == null ? List.of() : o.getMetadata().getOwnerReferences().stream()
        .filter(r -> Boolean.TRUE.equals(r.getController())).toList();
  }

  static <T extends HasMetadata> List<T> ownedBy(List<T> all, String uid) {
    return all.stream().filter(o -> controllers(o).stream().anyMatch(r -> r.getUid().equals(uid))).toList();
  }

  static String phase(Pod p) {
    return p.getStatus() == null ? null : p.getStatus().getPhase();
  }

  static String tail(String text, int lines) {
    String[] all = text.split("\n");
    return String.join("\n", Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
  }
}
