package dev.stint.core.reconciler;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.slf4j.MDC;

/**
 * The job a thread works on, as logging context (SLF4J's MDC): every line logged meanwhile carries the job's
 * {@value #KIND}, {@value #NAMESPACE} and {@value #NAME} as fields, which the operator's log layouts print
 * ({@code [PyTorchJob ns/name]} in text, top-level fields in JSON). The action pool copies it to its threads.
 */
public final class JobLogContext implements AutoCloseable {
  public static final String KIND = "kind";
  public static final String NAMESPACE = "namespace";
  public static final String NAME = "name";

  private JobLogContext() {
  }

  /** Puts the job's fields; {@link #close()} removes them. */
  public static JobLogContext of(String kind, HasMetadata job) {
    MDC.put(KIND, kind);
    MDC.put(NAMESPACE, job.getMetadata().getNamespace());
    MDC.put(NAME, job.getMetadata().getName());
    return new JobLogContext();
  }

  @Override
  public void close() {
    MDC.remove(KIND);
    MDC.remove(NAMESPACE);
    MDC.remove(NAME);
  }
}
