package dev.stint.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import org.junit.jupiter.api.Test;

/** The Lease read before electing: a Lease the operator may not use stops the start, naming what to fix. */
@EnableKubernetesMockClient
class LeaseElectionTest {
  static final String PATH = "/apis/coordination.k8s.io/v1/namespaces/stint-system/leases/r3-test";
  KubernetesMockServer server;
  KubernetesClient client;

  LeaseElection election() {
    return new LeaseElection(client, LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration("r3-test")
        .withLeaseNamespace("stint-system").withIdentity("replica-a").build(), null);
  }

  @Test
  void aLeaseTheRoleDoesNotNameStopsTheStart() {
    server.expect().get().withPath(PATH).andReturn(403, new StatusBuilder().withCode(403).withReason("Forbidden")
        .withMessage("leases.coordination.k8s.io \"r3-test\" is forbidden").build()).always();

    assertThatThrownBy(() -> election().start()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("refuses Lease stint-system/r3-test").hasMessageContaining("--leader-election-id");
  }

  @Test
  void aLeaseNotMadeYetIsTheElectorsToMake() {
    server.expect().get().withPath(PATH).andReturn(404, new StatusBuilder().withCode(404).withReason("NotFound")
        .build()).always();
    LeaseElection election = election();
    election.start();
    election.stop();
    assertThat(server.getRequestCount()).isPositive();
  }
}
