package dev.stint.core.testing;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;

/** The body an API server sends with a refusal, for mock-server expectations that refuse a request. */
public final class RefusalStatus {
  private RefusalStatus() { }

  /** A Status of that HTTP code, reason (Invalid, Forbidden, ...) and message. */
  public static Status of(int code, String reason, String message) {
    return new StatusBuilder().withCode(code).withReason(reason).withMessage(message).build();
  }
}
