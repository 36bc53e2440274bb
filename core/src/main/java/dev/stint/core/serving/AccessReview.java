package dev.stint.core.serving;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server what {@link KindCheck} needs: whether it serves a kind (discovery, which every authenticated
 * client may read) and whether this client has each right ({@code SelfSubjectAccessReview}, which every authenticated
 * client may create). Neither needs a grant of its own, so asking never adds a refusal to the audit log.
 */
public final class AccessReview {
  private static final Logger LOG = LoggerFactory.getLogger(AccessReview.class);
  private final KubernetesClient client;

  public AccessReview(KubernetesClient client) {
    this.client = client;
  }

  /** Whether {@code GET /apis/<groupVersion>} lists {@code plural}. */
  public boolean served(String groupVersion, String plural) {
    try {
      APIResourceList resources = client.getApiResources(groupVersion);
      return resources != null && resources.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return false; // no CRD of the group serves this version
      }
      throw e;
    }
  }

  /**
   * The API server's answer on each right, in order. A server that cannot review access (it answers the review itself
   * with an error, as an API server that does not serve {@code authorization.k8s.io} or a test double would) cannot
   * tell: every right counts as allowed, and the informers' own start is the test.
   */
  public Map<RequiredRight, Boolean> allowed(List<RequiredRight> rights) {
    Map<RequiredRight, Boolean> answers = new LinkedHashMap<>();
    boolean reviewed = true;
    for (RequiredRight right : rights) {
      if (reviewed) {
        try {
          answers.put(right, allowed(right));
          continue;
        } catch (KubernetesClientException e) {
          if (e.getCode() <= 0) {
            throw e; // no answer at all: the check could not be made
          }
          LOG.debug("Access reviews are not answered ({}): the informers' start tells", ApiErrors.oneLine(e));
          reviewed = false;
        }
      }
      answers.put(right, true);
    }
    return answers;
  }

  private boolean allowed(RequiredRight right) {
    int slash = right.resource().indexOf('/');
    SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
        .withVerb(right.verb())
        .withGroup(right.group())
        .withResource(slash < 0 ? right.resource() : right.resource().substring(0, slash))
        .withSubresource(slash < 0 ? null : right.resource().substring(slash + 1))
        .withNamespace(right.namespace().isEmpty() ? null : right.namespace())
        .endResourceAttributes().endSpec().build();
    SelfSubjectAccessReview answer = client.resource(review).create();
    // an API server always answers with a status; a server that does not (the fabric8 mock) cannot tell, so allow
    return answer.getStatus() == null || Boolean.TRUE.equals(answer.getStatus().getAllowed());
  }
}
