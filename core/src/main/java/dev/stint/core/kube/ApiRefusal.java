package dev.stint.core.kube;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Locale;

/**
 * Why the API server refused a write, sorted into what heals by itself and what does not. A permanent refusal
 * (invalid object, a bad request, forbidden for a reason other than quota) ends the job, because retrying the same
 * object can only be refused again; a healing one (quota, throttling, server errors, time-outs, a namespace being
 * deleted, a conflicting update) is retried for as long as it lasts.
 *
 * @param permanent whether retrying the same request can never succeed
 * @param cause a short name of the cause, the same for every refusal of its kind ({@code QuotaExceeded}): used in
 *     condition reasons, metrics and to send one event per distinct cause
 * @param message the API server's own words (its {@code Status.message}), else the client's
 */
public record ApiRefusal(boolean permanent, String cause, String message) {
  /**
   * The reason of a write this process did not send because it cannot prove it still leads ({@code LeaseFence}): it
   * heals when the Lease is renewed, or ends with the process.
   */
  public static final String LEASE_LOST = "LeaseLost";

  public static ApiRefusal of(KubernetesClientException e) {
    Status status = e.getStatus();
    String message = status != null && status.getMessage() != null && !status.getMessage().isBlank()
        ? status.getMessage() : rootMessage(e);
    String reason = status == null || status.getReason() == null ? "" : status.getReason();
    return classify(e.getCode(), reason, message);
  }

  /** The classification itself, on the HTTP code, the Status reason and message: a pure function, table-tested. */
  static ApiRefusal classify(int code, String reason, String message) {
    String lower = message.toLowerCase(Locale.ROOT);
    if (LEASE_LOST.equals(reason)) {
      return new ApiRefusal(false, LEASE_LOST, message);
    }
    return switch (code) {
      case 400 -> new ApiRefusal(true, "BadRequest", message);
      case 422 -> new ApiRefusal(true, "Invalid", message);
      case 403 -> forbidden(lower, message);
      case 409 -> new ApiRefusal(false, "Conflict", message);
      case 404 -> new ApiRefusal(false, "NotFound", message);
      case 410 -> new ApiRefusal(false, "Expired", message);
      case 429 -> new ApiRefusal(false, "TooManyRequests", message);
      case 401 -> new ApiRefusal(false, "Unauthorized", message);
      case 504 -> new ApiRefusal(false, "Timeout", message);
      case 0, -1 -> new ApiRefusal(false, lower.contains("timeout") || lower.contains("timed out") ? "Timeout"
          : "Unreachable", message);
      default -> new ApiRefusal(false, code >= 500 ? "ServerError" : "Http" + code, message);
    };
  }

  private static ApiRefusal forbidden(String lower, String message) {
    // "exceeded quota", and "status unknown for quota" while the quota controller has yet to count a new quota
    if (lower.contains("quota")) {
      return new ApiRefusal(false, "QuotaExceeded", message);
    }
    if (lower.contains("being terminated") || lower.contains("namespaceterminating")) {
      return new ApiRefusal(false, "NamespaceTerminating", message);
    }
    // a namespace's default service account comes a moment after the namespace; a named one when someone creates it
    if (lower.contains("error looking up service account")) {
      return new ApiRefusal(false, "ServiceAccountMissing", message);
    }
    // OwnerReferencesPermissionEnforcement maps the owner's kind with a RESTMapper that learns a CRD a moment after
    // it is applied: a job's first pods right after its CRD came (back) are refused until then
    if (lower.contains("cannot find restmapping")) {
      return new ApiRefusal(false, "OwnerKindNotMappedYet", message);
    }
    return new ApiRefusal(true, "Forbidden", message);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return t == e ? m : t.getClass().getSimpleName() + ": " + m;
  }
}
