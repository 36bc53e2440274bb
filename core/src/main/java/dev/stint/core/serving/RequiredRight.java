package dev.stint.core.serving;

/**
 * One right a kind's controller needs: a verb on a resource of an API group, in a namespace or cluster-wide.
 *
 * @param group the API group, "" for the core group
 * @param resource the plural, with its subresource when there is one ({@code pytorchjobs/status})
 * @param namespace the namespace, or "" for every namespace
 */
public record RequiredRight(String verb, String group, String resource, String namespace) {

  /** As RBAC names it in a refusal: {@code list jaxjobs.kubeflow.org cluster-wide}. */
  public String describe() {
    String qualified = group.isEmpty() ? resource : qualifiedResource();
    return verb + " " + qualified + (namespace.isEmpty() ? " cluster-wide" : " in namespace " + namespace);
  }

  private String qualifiedResource() {
    int slash = resource.indexOf('/');
    return slash < 0 ? resource + "." + group
        : resource.substring(0, slash) + "." + group + resource.substring(slash);
  }
}
