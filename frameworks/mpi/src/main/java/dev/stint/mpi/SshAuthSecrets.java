package dev.stint.mpi;

import dev.stint.spi.SupportingResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code <job>-ssh} Secret of an MPIJob ({@code kubernetes.io/ssh-auth}: {@code ssh-privatekey} and
 * {@code ssh-publickey}). The framework keeps no key: the Secret is a {@link SupportingResource#createdOnce} object,
 * so the engine asks for its content, and a new P-521 key pair is generated, only when the Secret is missing. The
 * Secret in the cluster is the one copy of the key, which every pod of the job mounts; it lives with the job, through
 * suspensions, until the job is deleted.
 */
final class SshAuthSecrets {
  static final String PRIVATE_KEY = "ssh-privatekey";
  static final String PUBLIC_KEY = "ssh-publickey";
  static final String TYPE = "kubernetes.io/ssh-auth";

  private SshAuthSecrets() { }

  /** The name of a job's Secret: {@code <job>-ssh}. */
  static String name(String jobName) {
    return jobName + "-ssh";
  }

  /** The job's Secret as a supporting resource: named now, its key pair generated when the engine creates it. */
  static SupportingResource of(MPIJob job) {
    String name = name(job.getMetadata().getName());
    Secret named = new SecretBuilder().withNewMetadata().withName(name).endMetadata().withType(TYPE).build();
    return SupportingResource.createdOnce(named, () -> withKeys(name, SshKeyPair.generate()));
  }

  /** A Secret holding this key pair. */
  static Secret withKeys(String name, SshKeyPair pair) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put(PRIVATE_KEY, base64(pair.privateKeyPem()));
    data.put(PUBLIC_KEY, base64(pair.authorizedKey()));
    return new SecretBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withType(TYPE)
        .withData(data)
        .build();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }
}
