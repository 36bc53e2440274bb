package dev.stint.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The rights that deploy/'s roles grant, one per (role, group, resource, verb), so that each can be matched against
 * the requests of the audit log: a grant that no request used is one no test needs.
 */
final class RbacGrants {

  /**
   * One verb on one resource, granted by a role.
   *
   * @param role {@code ClusterRole stint} or {@code Role stint-system/stint-leader-election}
   * @param namespace where a Role grants it; "" for a ClusterRole (bound cluster-wide)
   * @param resource with its subresource, e.g. {@code pytorchjobs/status}
   * @param resourceNames the names it is limited to; empty for every name
   */
  record Grant(String role, String namespace, String apiGroup, String resource, String verb,
               List<String> resourceNames) {
    boolean allows(AuditLog.Request r) {
      String requested = r.subresource().isEmpty() ? r.resource() : r.resource() + "/" + r.subresource();
      return r.resource() != null && verb.equals(r.verb()) && apiGroup.equals(r.apiGroup())
          && resource.equals(requested) && (namespace.isEmpty() || namespace.equals(r.namespace()))
          && (resourceNames.isEmpty() || resourceNames.contains(r.name()));
    }

    /** As a message names it: {@code ClusterRole stint: update kubeflow.org/pytorchjobs/finalizers}. */
    String describe() {
      return role + ": " + verb + " " + (apiGroup.isEmpty() ? "" : apiGroup + "/") + resource
          + (resourceNames.isEmpty() ? "" : " " + resourceNames);
    }
  }

  private RbacGrants() { }

  /** Every grant of the ClusterRoles and Roles among the objects (a kustomize build). */
  static List<Grant> of(List<HasMetadata> objects) {
    List<Grant> grants = new ArrayList<>();
    for (HasMetadata object : objects) {
      if (object instanceof ClusterRole role && !forUsers(role)) {
        add(grants, "ClusterRole " + role.getMetadata().getName(), "", role.getRules());
      } else if (object instanceof Role role) {
        add(grants, "Role " + role.getMetadata().getNamespace() + "/" + role.getMetadata().getName(),
            role.getMetadata().getNamespace(), role.getRules());
      }
    }
    return grants;
  }

  /** A role aggregated into the built-in edit, admin or view (deploy/base/user-roles.yaml): people's, not the operator's. */
  private static boolean forUsers(ClusterRole role) {
    var labels = role.getMetadata().getLabels();
    return labels != null
        && labels.keySet().stream().anyMatch(k -> k.startsWith("rbac.authorization.k8s.io/aggregate-to-"));
  }

  private static void add(List<Grant> into, String role, String namespace, List<PolicyRule> rules) {
    for (PolicyRule rule : rules) {
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            into.add(new Grant(role, namespace, group, resource, verb, List.copyOf(rule.getResourceNames())));
          }
        }
      }
    }
  }

  /**
   * The grants that no request used. {@code usedWithoutRequest} names grants the API server checks itself, with no
   * request of their own in the log (update on a job's finalizers, checked by OwnerReferencesPermissionEnforcement
   * when a child is created with blockOwnerDeletion).
   */
  static List<Grant> unused(List<Grant> grants, List<AuditLog.Request> requests, Predicate<Grant> usedWithoutRequest) {
    return grants.stream()
        .filter(g -> !usedWithoutRequest.test(g))
        .filter(g -> requests.stream().noneMatch(g::allows))
        .toList();
  }
}
