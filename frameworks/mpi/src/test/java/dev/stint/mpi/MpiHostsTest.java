package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The hostfile and discover_hosts.sh, byte for byte as the MPI Operator v2 writes them. */
class MpiHostsTest {

  static MpiHosts hosts(TestMPIJobs job, String clusterDomain) {
    return new MpiHosts(job.build(), clusterDomain);
  }

  @Test
  void openMpiHostfileListsEveryWorkerWithSlots() {
    MpiHosts hosts = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(2), "");

    assertThat(hosts.hostfile(2)).isEqualTo("""
        pi-worker-0.pi.ns.svc slots=1
        pi-worker-1.pi.ns.svc slots=1
        """);
  }

  @Test
  void intelAndMpichUseHostColonSlots() {
    for (String implementation : List.of(MPIJobSpec.INTEL, MPIJobSpec.MPICH)) {
      MpiHosts hosts = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(2)
          .spec(s -> {
            s.setMpiImplementation(implementation);
            s.setSlotsPerWorker(4);
          }), "");

      assertThat(hosts.hostfile(2)).as(implementation).isEqualTo("""
          pi-worker-0.pi.ns.svc:4
          pi-worker-1.pi.ns.svc:4
          """);
    }
  }

  @Test
  void slotsPerWorkerAppearsOnEveryLine() {
    MpiHosts hosts = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(3)
        .spec(s -> s.setSlotsPerWorker(8)), "");

    assertThat(hosts.hostfile(3).lines()).containsExactly("pi-worker-0.pi.ns.svc slots=8",
        "pi-worker-1.pi.ns.svc slots=8", "pi-worker-2.pi.ns.svc slots=8");
  }

  @Test
  void launcherComesFirstWhenItRunsAsWorker() {
    MpiHosts openMpi = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(1)
        .spec(s -> s.setRunLauncherAsWorker(true)), "");
    MpiHosts mpich = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(1)
        .spec(s -> {
          s.setRunLauncherAsWorker(true);
          s.setMpiImplementation(MPIJobSpec.MPICH);
        }), "");

    assertThat(openMpi.hostfile(1)).isEqualTo("pi-launcher.pi.ns.svc slots=1\npi-worker-0.pi.ns.svc slots=1\n");
    assertThat(mpich.hostfile(1)).isEqualTo("pi-launcher.pi.ns.svc:1\npi-worker-0.pi.ns.svc:1\n");
    assertThat(openMpi.hostfile(0)).as("a launcher-only job").isEqualTo("pi-launcher.pi.ns.svc slots=1\n");
  }

  @Test
  void clusterDomainIsAppendedAfterSvc() {
    MpiHosts hosts = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(1), "cluster.local");

    assertThat(hosts.hostfile(1)).isEqualTo("pi-worker-0.pi.ns.svc.cluster.local slots=1\n");
    assertThat(hosts.discoverHosts(Set.of(0))).isEqualTo("#!/bin/sh\necho pi-worker-0.pi.ns.svc.cluster.local\n");
  }

  @Test
  void discoverHostsListsOnlyRunningWorkersSortedByName() {
    MpiHosts hosts = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(11), "");

    assertThat(hosts.discoverHosts(Set.of())).isEqualTo("#!/bin/sh\n");
    assertThat(hosts.discoverHosts(Set.of(2, 0))).isEqualTo("""
        #!/bin/sh
        echo pi-worker-0.pi.ns.svc
        echo pi-worker-2.pi.ns.svc
        """);
    // upstream sorts pod names as strings
    assertThat(hosts.discoverHosts(Set.of(2, 10)).lines())
        .containsExactly("#!/bin/sh", "echo pi-worker-10.pi.ns.svc", "echo pi-worker-2.pi.ns.svc");
  }

  @Test
  void discoverHostsPutsTheLauncherFirstWhenItRunsAsWorker() {
    MpiHosts hosts = hosts(TestMPIJobs.job("pi").namespace("ns").launcher().workers(2)
        .spec(s -> s.setRunLauncherAsWorker(true)), "");

    assertThat(hosts.discoverHosts(Set.of(1))).isEqualTo("""
        #!/bin/sh
        echo pi-launcher.pi.ns.svc
        echo pi-worker-1.pi.ns.svc
        """);
  }
}
