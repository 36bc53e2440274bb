package dev.stint.core.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ApiRefusalTest {

  @ParameterizedTest(name = "{0} {1}: permanent={3}, cause {4}")
  @CsvSource(delimiter = '|', textBlock = """
      422 | Invalid   | Service "x-master-0" is invalid: metadata.name: must be no more than 63 characters | true  | Invalid
      400 | BadRequest| the server rejected our request                                                  | true  | BadRequest
      403 | Forbidden | pods is forbidden: User "system:serviceaccount:s:stint" cannot create resource    | true  | Forbidden
      403 | Forbidden | pods "x" is forbidden: violates PodSecurity "restricted:latest"                   | true  | Forbidden
      403 | Forbidden | pods "x" is forbidden: exceeded quota: compute, requested: cpu=2                  | false | QuotaExceeded
      403 | Forbidden | pods "x" is forbidden: status unknown for quota: compute, resources: pods            | false | QuotaExceeded
      403 | Forbidden | pods "x" is forbidden: error looking up service account t/default: serviceaccount "default" not found | false | ServiceAccountMissing
      403 | Forbidden | unable to create new content in namespace t because it is being terminated        | false | NamespaceTerminating
      403 | Forbidden | pods "j-worker-0" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion kubeflow.org/v1 Kind JAXJob: no matches for kind "JAXJob" in version "kubeflow.org/v1" | false | OwnerKindNotMappedYet
      409 | Conflict  | Operation cannot be fulfilled: the object has been modified                      | false | Conflict
      410 | Expired   | too old resource version                                                          | false | Expired
      429 | TooManyRequests | the server has received too many requests                                   | false | TooManyRequests
      500 | InternalError | etcdserver: request timed out                                                 | false | ServerError
      503 | ServiceUnavailable | the server is currently unable to handle the request                     | false | ServerError
      504 | Timeout   | the server was unable to return a response in the time allotted                   | false | Timeout
      404 | NotFound  | namespaces "gone" not found                                                        | false | NotFound
      0   | LeaseLost | POST /api/v1/namespaces/t/pods not sent: this process cannot prove it still holds its Lease (it lost it) | false | LeaseLost
      """)
  void sortsRefusalsIntoPermanentAndHealing(int code, String reason, String message, boolean permanent,
                                            String cause) {
    ApiRefusal refusal = ApiRefusal.of(new KubernetesClientException(
        new StatusBuilder().withCode(code).withReason(reason).withMessage(message).build()));
    assertThat(refusal.permanent()).isEqualTo(permanent);
    assertThat(refusal.cause()).isEqualTo(cause);
    assertThat(refusal.message()).isEqualTo(message);
  }

  @Test
  void anIoFailureWithoutStatusIsRetriedAndNamedByItsRootCause() {
    ApiRefusal refusal = ApiRefusal.of(new KubernetesClientException("An error has occurred.",
        new SocketTimeoutException("connect timed out")));
    assertThat(refusal.permanent()).isFalse();
    assertThat(refusal.cause()).isEqualTo("Timeout");
    assertThat(refusal.message()).isEqualTo("SocketTimeoutException: connect timed out");
  }
}
