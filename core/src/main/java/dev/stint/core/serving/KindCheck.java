package dev.stint.core.serving;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.Controller;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What a kind's controller needs from the API server before its informers start, and the verdict on what the API
 * server said (pure: the asking is {@link AccessReview}'s). A controller needs its kind's CRD served, {@code list}
 * and {@code watch} on the kind and on every resource its informers follow (pods, services, supporting objects), and
 * {@code patch} on the kind's status, in every namespace it watches. Checking this first is what lets a kind without
 * its rights stay down alone, named in one line, instead of failing the informers of every kind. The verdict is pure;
 * {@link #onApiServer} asks the API server ({@link AccessReview}).
 */
public final class KindCheck {
  private KindCheck() { }

  /** A resource an informer of the kind follows: its API group ("" for core) and plural. */
  public record Watched(String group, String plural) { }

  /**
   * The rights of a kind, in the order they are asked and named.
   *
   * @param kind the job kind's own resource
   * @param children the resources its child informers follow
   * @param namespaces the watched namespaces; empty: every namespace
   */
  public static List<RequiredRight> rightsOf(Watched kind, Collection<Watched> children,
                                             Collection<String> namespaces) {
    List<String> where = namespaces.isEmpty() ? List.of("") : List.copyOf(namespaces);
    List<RequiredRight> rights = new ArrayList<>();
    for (String namespace : where) {
      for (String verb : List.of("list", "watch")) {
        rights.add(new RequiredRight(verb, kind.group(), kind.plural(), namespace));
      }
      rights.add(new RequiredRight("patch", kind.group(), kind.plural() + "/status", namespace));
      for (Watched child : children) {
        for (String verb : List.of("list", "watch")) {
          rights.add(new RequiredRight(verb, child.group(), child.plural(), namespace));
        }
      }
    }
    return rights;
  }

  /**
   * The check of a kind on the API server: discovery for its CRD, then an access review of each of its rights (its
   * child informers' resources read from the controller).
   */
  public static Function<Controller<?>, KindVerdict> onApiServer(KubernetesClient client,
                                                                 Class<? extends HasMetadata> jobType,
                                                                 Set<String> namespaces) {
    AccessReview access = new AccessReview(client);
    String crd = HasMetadata.getFullResourceName(jobType);
    Watched own = new Watched(HasMetadata.getGroup(jobType), HasMetadata.getPlural(jobType));
    return controller -> {
      if (!access.served(HasMetadata.getApiVersion(jobType), own.plural())) {
        return verdict(crd, false, Map.of());
      }
      return verdict(crd, true, access.allowed(rightsOf(own, ServedKinds.childrenOf(controller), namespaces)));
    };
  }

  /**
   * The verdict: served when the CRD is served and every right allowed; else down, naming the CRD or the rights
   * refused (all of them: a user fixes the rule once).
   *
   * @param crd the CRD's name ({@code jaxjobs.kubeflow.org})
   * @param crdServed whether discovery lists the kind's resource
   * @param allowed each right asked, in order, and the API server's answer
   */
  public static KindVerdict verdict(String crd, boolean crdServed, Map<RequiredRight, Boolean> allowed) {
    if (!crdServed) {
      return KindVerdict.down("CRD " + crd + " is not installed (kubectl apply --server-side -f crds/ of Stint, or of "
          + "the plugin that brings the kind)");
    }
    List<String> refused = allowed.entrySet().stream().filter(e -> !e.getValue())
        .map(e -> e.getKey().describe()).toList();
    if (refused.isEmpty()) {
      return KindVerdict.SERVED;
    }
    return KindVerdict.down("the service account may not " + String.join(", ", refused)
        + " (a rule missing from the ClusterRole)");
  }
}
