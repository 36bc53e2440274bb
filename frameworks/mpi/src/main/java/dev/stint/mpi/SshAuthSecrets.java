package dev.stint.mpi;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code <job>-ssh} Secrets of MPIJobs ({@code kubernetes.io/ssh-auth}: {@code ssh-privatekey} and
 * {@code ssh-publickey}), with a key pair remembered per job.
 *
 * <p>Why remember: the engine asks for a job's supporting objects on every reconcile and deletes those it is no
 * longer given, so the Secret must be returned every time; it is created once and never updated
 * ({@code onlyCreated}), so any key pair would do after the first, but a P-521 key pair costs a few milliseconds to
 * generate. Keeping the pair per job uid makes every later reconcile free, and a Secret deleted by hand comes back
 * with the key the running pods already mounted. The map is bounded (least recently used pairs are dropped); a pair
 * dropped, or lost with an operator restart, is simply generated again and discarded, since the Secret exists.
 */
final class SshAuthSecrets {
  static final String PRIVATE_KEY = "ssh-privatekey";
  static final String PUBLIC_KEY = "ssh-publickey";
  static final String TYPE = "kubernetes.io/ssh-auth";
  static final int DEFAULT_CAPACITY = 4096;

  private final Map<String, SshKeyPair> pairsByJob;

  SshAuthSecrets(int capacity) {
    this.pairsByJob = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, SshKeyPair> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The name of a job's Secret: {@code <job>-ssh}. */
  static String name(String jobName) {
    return jobName + "-ssh";
  }

  /** The Secret of a job, with the job's remembered key pair (generated on first use). */
  Secret of(MPIJob job) {
    SshKeyPair pair = pairOf(job);
    Map<String, String> data = new LinkedHashMap<>();
    data.put(PRIVATE_KEY, base64(pair.privateKeyPem()));
    data.put(PUBLIC_KEY, base64(pair.authorizedKey()));
    return new SecretBuilder()
        .withNewMetadata().withName(name(job.getMetadata().getName())).endMetadata()
        .withType(TYPE)
        .withData(data)
        .build();
  }

  /** The key pair of a job: keyed by uid, or by namespace and name for a job not yet stored. */
  synchronized SshKeyPair pairOf(MPIJob job) {
    String uid = job.getMetadata().getUid();
    String key = uid != null ? uid : job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
    return pairsByJob.computeIfAbsent(key, k -> SshKeyPair.generate());
  }

  synchronized int size() {
    return pairsByJob.size();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }
}
